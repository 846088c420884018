import { EmuError } from '../../errors.js';
import { starPattern, wildcardMatcher } from '@svcform/query/regex/wildcard.js';

/** The search backend's result window: from + size beyond this needs search_after (the cursor). */
export const SEARCH_WINDOW = 10_000;

export interface FindQuery {
  page: number;
  perPage: number;
  sortField?: string;
  sortOrder: 'asc' | 'desc';
  cursor?: string;
  filter?: string;
}

type Row = Record<string, any> & { tie_breaker_id: string };

const queryError = (message: string) => new EmuError(400, `[request query]: ${message}`, 'platform');

function positiveInt(q: URLSearchParams, name: string, fallback: number): number {
  const raw = q.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw queryError(`${name}: Expected number, received ${JSON.stringify(raw)}`);
  if (n < 1) throw queryError(`${name}: Number must be greater than or equal to 1`);
  return n;
}

/** Paging parameters of /api/lists/_find and /api/lists/items/_find (per_page default 20). */
export function parseFindQuery(q: URLSearchParams): FindQuery {
  const sortOrder = q.get('sort_order') ?? 'asc';
  if (sortOrder !== 'asc' && sortOrder !== 'desc') {
    throw queryError(`sort_order: Invalid enum value. Expected 'desc' | 'asc', received '${sortOrder}'`);
  }
  return {
    page: positiveInt(q, 'page', 1),
    perPage: positiveInt(q, 'per_page', 20),
    sortField: q.get('sort_field') || undefined,
    sortOrder,
    cursor: q.get('cursor') || undefined,
    filter: q.get('filter') || undefined,
  };
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = typeof a === 'string' ? a : JSON.stringify(a);
  const sb = typeof b === 'string' ? b : JSON.stringify(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** The sort the security app asks for: the requested field, then tie_breaker_id ascending. */
export function rowComparator(sortField: string | undefined, sortOrder: 'asc' | 'desc'): (a: Row, b: Row) => number {
  return (a, b) => {
    if (sortField) {
      const c = compareValues(a[sortField], b[sortField]);
      if (c !== 0) return sortOrder === 'desc' ? -c : c;
    }
    return a.tie_breaker_id < b.tie_breaker_id ? -1 : a.tie_breaker_id > b.tie_breaker_id ? 1 : 0;
  };
}

export const sortKey = (q: Pick<FindQuery, 'sortField' | 'sortOrder'>) => `${q.sortField ?? ''}:${q.sortOrder}`;

interface Clause {
  field: string;
  match: (v: unknown) => boolean;
}

/**
 * The `filter` parameter is KQL on the stored documents; the emulator understands what callers
 * send in practice: `<field>:<value>` clauses (value optionally quoted, `*` as wildcard) joined
 * by AND.
 */
export function parseFilter(filter: string | undefined): Clause[] {
  if (!filter) return [];
  return filter.split(/\s+and\s+/i).map((part) => {
    const colon = part.indexOf(':');
    if (colon <= 0) throw new EmuError(400, `Invalid filter "${filter}": expected <field>:<value>`, 'security');
    const field = part.slice(0, colon).trim();
    let value = part.slice(colon + 1).trim();
    const quoted = /^"(.*)"$/.exec(value);
    if (quoted) value = quoted[1].replace(/\\"/g, '"');
    if (!quoted && value.includes('*')) {
      // Matched without backtracking, as the backend's wildcard automaton does.
      const pattern = wildcardMatcher(starPattern(value), false);
      return { field, match: (v) => v !== undefined && v !== null && pattern.test(String(v)) };
    }
    return { field, match: (v) => v !== undefined && v !== null && String(v) === value };
  });
}


/** `fieldOf` reads a clause's field from a row (item filters may name the list type as the field). */
export function applyFilter<T extends Row>(rows: T[], clauses: Clause[], fieldOf: (row: T, field: string) => unknown = (r, f) => r[f]): T[] {
  if (clauses.length === 0) return rows;
  return rows.filter((row) => clauses.every((c) => c.match(fieldOf(row, c.field))));
}

type SearchAfter = Array<string | number | null>;

/** The opaque cursor: `[index of the next item, search_after of the last item]`, base64 JSON. */
function encodeCursor(index: number, searchAfter: SearchAfter | undefined): string {
  return Buffer.from(JSON.stringify(searchAfter ? [index, searchAfter] : [index])).toString('base64');
}

function decodeCursor(cursor: string, q: FindQuery): [number, SearchAfter | undefined] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'));
  } catch {
    throw new EmuError(400, 'Error parsing JSON from base64 encoded cursor', 'security');
  }
  const valid =
    Array.isArray(parsed) &&
    (parsed.length === 1 || parsed.length === 2) &&
    typeof parsed[0] === 'number' &&
    (parsed[1] === undefined || (Array.isArray(parsed[1]) && parsed[1].length === (q.sortField ? 2 : 1)));
  if (!valid) throw new EmuError(400, 'Error decoding cursor structure', 'security');
  const [index, searchAfter] = parsed as [number, SearchAfter | undefined];
  const startIndex = (q.page - 1) * q.perPage;
  if (index < 0) throw new EmuError(400, 'index of cursor cannot be less 0', 'security');
  if (index > startIndex) {
    throw new EmuError(400, `index: ${index} of cursor cannot be greater than the start page index: ${startIndex}`, 'security');
  }
  return [index, searchAfter];
}

function searchAfterOf(row: Row, q: FindQuery): SearchAfter {
  if (!q.sortField) return [row.tie_breaker_id];
  const v = row[q.sortField];
  return [typeof v === 'number' || typeof v === 'string' ? v : v === undefined ? null : JSON.stringify(v), row.tie_breaker_id];
}

/** Index of the first row strictly after the search_after key (rows are sorted by `cmp`). */
function upperBound(rows: Row[], key: SearchAfter, q: FindQuery, cmp: (a: Row, b: Row) => number): number {
  const probe: Row = q.sortField
    ? { [q.sortField]: key[0] ?? undefined, tie_breaker_id: String(key[1]) }
    : { tie_breaker_id: String(key[0]) };
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(rows[mid], probe) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One page of sorted rows. Without a cursor, page and per_page address the rows directly and the
 * search window applies; with a cursor the page resumes after the cursor's last row (search_after),
 * so callers can page through any number of rows.
 */
export function pageOf<T extends Row>(sorted: T[], q: FindQuery): { data: T[]; cursor: string } {
  const cmp = rowComparator(q.sortField, q.sortOrder);
  const startIndex = (q.page - 1) * q.perPage;
  let start: number;
  if (q.cursor === undefined) {
    if (q.page * q.perPage > SEARCH_WINDOW) {
      throw new EmuError(
        400,
        `Result window is too large, from + size must be less than or equal to: [${SEARCH_WINDOW}] but was [${q.page * q.perPage}]. ` +
          'See the scroll api for a more efficient way to request large data sets.',
        'security',
      );
    }
    start = startIndex;
  } else {
    const [index, searchAfter] = decodeCursor(q.cursor, q);
    start = (searchAfter ? upperBound(sorted, searchAfter, q, cmp) : 0) + (startIndex - index);
  }
  const data = sorted.slice(start, start + q.perPage);
  const last = data[data.length - 1];
  return { data, cursor: encodeCursor(last ? q.page * q.perPage : 0, last ? searchAfterOf(last, q) : undefined) };
}
