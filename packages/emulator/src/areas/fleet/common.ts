import { badRequest } from '../../errors.js';
import type { EmuRequest } from '../../router.js';

/** Reads a query parameter under its wire name or the snake_case name the API document uses. */
export function queryValue(req: EmuRequest, name: string, alias?: string): string | null {
  return req.query.get(name) ?? (alias ? req.query.get(alias) : null);
}

export function numberQuery(req: EmuRequest, name: string, alias: string | undefined, fallback: number): number {
  const raw = queryValue(req, name, alias);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) {
    throw badRequest(`[request query.${name}]: expected value of type [number] but got [string]`);
  }
  return n;
}

export function boolQuery(req: EmuRequest, name: string, alias?: string): boolean | undefined {
  const raw = queryValue(req, name, alias);
  if (raw === null) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw badRequest(`[request query.${name}]: expected value of type [boolean] but got [string]`);
}

export function formatQuery(req: EmuRequest): 'simplified' | 'legacy' | undefined {
  const raw = req.query.get('format');
  if (raw === null) return undefined;
  if (raw === 'simplified' || raw === 'legacy') return raw;
  throw badRequest(`[request query.format]: types that failed validation:\n- [request query.format.0]: expected value to equal [simplified]\n- [request query.format.1]: expected value to equal [legacy]`);
}

export interface PageRequest {
  page: number;
  perPage: number;
  sortField: string;
  sortOrder: 'asc' | 'desc';
}

/** page / perPage / sortField / sortOrder as Fleet list routes take them (page 1-based, perPage default 20). */
export function pageRequest(req: EmuRequest, defaults: { sortField: string; sortOrder: 'asc' | 'desc' }): PageRequest {
  const page = numberQuery(req, 'page', undefined, 1);
  const perPage = numberQuery(req, 'perPage', 'per_page', 20);
  const sortOrderRaw = queryValue(req, 'sortOrder', 'sort_order');
  if (sortOrderRaw !== null && sortOrderRaw !== 'asc' && sortOrderRaw !== 'desc') {
    throw badRequest(`[request query.sortOrder]: types that failed validation:\n- [request query.sortOrder.0]: expected value to equal [desc]\n- [request query.sortOrder.1]: expected value to equal [asc]`);
  }
  if (page < 1 || !Number.isInteger(page)) throw badRequest(`[request query.page]: Value must be an integer equal or greater than [1].`);
  if (perPage < 0 || !Number.isInteger(perPage)) throw badRequest(`[request query.perPage]: Value must be an integer equal or greater than [0].`);
  return {
    page,
    perPage,
    sortField: queryValue(req, 'sortField', 'sort_field') ?? defaults.sortField,
    sortOrder: (sortOrderRaw as 'asc' | 'desc' | null) ?? defaults.sortOrder,
  };
}

/** Past this many hits (page × perPage) the search backend refuses the query. */
export const SEARCH_WINDOW = 10000;

function sortValue(record: Record<string, any>, path: string): unknown {
  let cur: any = record;
  for (const part of path.split('.')) cur = cur?.[part];
  return Array.isArray(cur) ? cur[0] : cur;
}

/** Sorts (ties broken by creation order), checks the search window and cuts one page. */
export function paginate<T extends { seq: number }>(records: T[], p: PageRequest): { items: T[]; total: number } {
  if (p.page * p.perPage > SEARCH_WINDOW) {
    throw badRequest(
      `Result window is too large, from + size must be less than or equal to: [${SEARCH_WINDOW}] but was [${p.page * p.perPage}]. See the scroll api for a more efficient way to request large data sets.`,
    );
  }
  const dir = p.sortOrder === 'asc' ? 1 : -1;
  const sorted = [...records].sort((a, b) => {
    const va = sortValue(a as Record<string, any>, p.sortField);
    const vb = sortValue(b as Record<string, any>, p.sortField);
    if (va !== vb) {
      if (va === undefined || va === null) return 1;
      if (vb === undefined || vb === null) return -1;
      if (va < (vb as any)) return -dir;
      if (va > (vb as any)) return dir;
    }
    return (a.seq - b.seq) * dir;
  });
  const start = (p.page - 1) * p.perPage;
  return { items: sorted.slice(start, start + p.perPage), total: records.length };
}

const INVALID_NAMESPACE_CHARACTERS = /[*\\/?"<>|\s,#:-]+/;

/** The server's data-stream namespace rule (lowercase, no special characters, at most 100 bytes). */
export function namespaceError(ns: string): string | undefined {
  if (!ns.trim()) return 'Namespace is required';
  if (ns !== ns.toLowerCase()) return 'Namespace must be lowercase';
  if (INVALID_NAMESPACE_CHARACTERS.test(ns)) return 'Namespace contains invalid characters';
  if (Buffer.byteLength(ns) > 100) return 'Namespace cannot be more than 100 bytes';
  return undefined;
}
