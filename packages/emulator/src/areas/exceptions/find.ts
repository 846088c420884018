import { EmuError } from '../../errors.js';
import { applyFilter, parseFilter, rowComparator } from '../lists/find.js';
import type { Row } from './state.js';

/**
 * Query parameters of the two exception `_find` routes (OpenAPI b76003905: FindExceptionLists,
 * FindExceptionListItems; wire-facts 0.4). Array parameters arrive comma-separated, as the
 * routes' ArrayFromString schemas read them.
 */

const queryError = (message: string) => new EmuError(400, `[request query]: ${message}`, 'platform');

export function arrayParam(q: URLSearchParams, name: string): string[] | undefined {
  const raw = q.getAll(name);
  if (raw.length === 0) return undefined;
  return raw.flatMap((r) => r.split(',')).map((s) => s.trim());
}

function intParam(q: URLSearchParams, name: string, fallback: number, min: number): number {
  const raw = q.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw queryError(`${name}: Invalid input: expected number, received NaN`);
  if (n < min) throw queryError(`${name}: Too small: expected number to be >=${min}`);
  return n;
}

export function namespaceParam(q: URLSearchParams): string[] {
  const values = arrayParam(q, 'namespace_type') ?? ['single'];
  values.forEach((v, i) => {
    if (v !== 'single' && v !== 'agnostic') throw queryError(`namespace_type.${i}: Invalid option: expected one of "agnostic"|"single"`);
  });
  return values;
}

/** Filters the rows (`<field>:<value>` clauses on the stored attributes), sorts and cuts one page. */
export function findPage(rows: Row[], q: URLSearchParams, minPage: number): { data: Row[]; page: number; per_page: number; total: number } {
  const page = intParam(q, 'page', 1, minPage);
  const perPage = intParam(q, 'per_page', 20, minPage);
  const sortOrder = q.get('sort_order') ?? 'asc';
  if (sortOrder !== 'asc' && sortOrder !== 'desc') throw queryError(`sort_order: Invalid option: expected one of "desc"|"asc"`);
  const filters = arrayParam(q, 'filter')?.filter((f) => f !== '') ?? [];
  // Filters name saved-object attributes (`exception-list.attributes.name: x`); the row holds them directly.
  const fieldOf = (row: Row, field: string) => row[field.replace(/^exception-list(-agnostic)?\.attributes\./, '')];
  let matched = rows;
  for (const f of filters) matched = applyFilter(matched as Array<Row & { tie_breaker_id: string }>, parseFilter(f), fieldOf);
  const sorted = [...matched].sort(rowComparator(q.get('sort_field') || undefined, sortOrder) as (a: Row, b: Row) => number);
  const start = (Math.max(page, 1) - 1) * perPage;
  return { data: sorted.slice(start, start + perPage), page, per_page: perPage, total: sorted.length };
}
