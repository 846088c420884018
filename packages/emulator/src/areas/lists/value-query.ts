import { isIP } from 'node:net';
import { badRequest } from '../../errors.js';
import type { ItemRecord, ListItems } from './state.js';

/**
 * The items a read or delete by value finds (`GET`/`DELETE /api/lists/items?list_id=&value=`).
 * The lists plugin queries the item index with the list type's query (services/utils/
 * get_query_filter_from_type_value.ts): a `term` for single-valued types (an equality), a `match`
 * with operator `and` for `text` (every word of the value, in any item), and a `term` against the
 * range field for the range types, which finds every range holding the value and fails when the
 * value is not a point of the range's kind. Shapes and points get the same `term` query on a geo
 * field, which the search backend may refuse (not confirmed): they are matched by equality here.
 */
export function itemsWithValue(items: ListItems | undefined, byValue: () => ItemRecord[], type: string, value: string): ItemRecord[] {
  if (type === 'text') {
    const words = wordsOf(value);
    if (words.length === 0) return [];
    return [...(items?.byId.values() ?? [])].filter((item) => {
      const have = new Set(wordsOf(item.value));
      return words.every((w) => have.has(w));
    });
  }
  const point = RANGE_POINTS[type];
  if (!point) return byValue();
  const at = point.parse(value);
  if (at === undefined) throw badRequest(point.refusal(value), 'security');
  return [...(items?.byId.values() ?? [])].filter((item) => {
    const bounds = point.bounds(item.value);
    return bounds !== undefined && point.compare(bounds[0], at) <= 0 && point.compare(at, bounds[1]) <= 0;
  });
}

/**
 * Why a delete by value fails after its search found `found`: the plugin deletes by querying again
 * with the found items' values (items/delete_list_item_by_value.ts), which for a range type are
 * ranges (`a-b`, a CIDR), never a point of the field, so that query fails whenever anything was
 * found. `undefined` for the other types, and when nothing was found (a 404).
 */
export function deleteByValueRefusal(type: string, found: ItemRecord[]): string | undefined {
  const point = RANGE_POINTS[type];
  return point && found.length > 0 ? point.refusal(found[0].value) : undefined;
}

/** Lower-cased runs of letters and digits: what the standard analyzer splits text into, near enough. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

interface RangePoint<T> {
  parse(text: string): T | undefined;
  /** The stored range `a-b` (`a,b` for dates, or an ip_range CIDR) as its two ends. */
  bounds(stored: string): [T, T] | undefined;
  compare(a: T, b: T): number;
  /** The search backend's words for a value that is no point of the field (a 400 the route passes on). */
  refusal(text: string): string;
}

function split(stored: string, separator: string): [string, string] | undefined {
  const at = stored.lastIndexOf(separator);
  return at <= 0 ? undefined : [stored.slice(0, at), stored.slice(at + 1)];
}

const numberPoint: RangePoint<number> = {
  parse: (text) => (text.trim() === '' || Number.isNaN(Number(text)) ? undefined : Number(text)),
  bounds(stored) {
    // A dash may also be a sign or an exponent's: the separator is the first dash with a number on each side.
    for (let at = stored.indexOf('-', 1); at > 0; at = stored.indexOf('-', at + 1)) {
      const low = numberPoint.parse(stored.slice(0, at));
      const high = numberPoint.parse(stored.slice(at + 1));
      if (low !== undefined && high !== undefined) return [low, high];
    }
    return undefined;
  },
  compare: (a, b) => a - b,
  refusal: (text) => `failed to create query: For input string: "${text}"`,
};

const datePoint: RangePoint<number> = {
  parse: (text) => (Number.isNaN(Date.parse(text)) ? undefined : Date.parse(text)),
  bounds(stored) {
    const ends = split(stored, ',');
    return ends ? [Date.parse(ends[0]), Date.parse(ends[1])] : undefined;
  },
  compare: (a, b) => a - b,
  refusal: (text) => `failed to create query: failed to parse date field [${text}] with format [strict_date_optional_time||epoch_millis]`,
};

/** An address as a big number (IPv4 mapped into the IPv6 space, as the backend compares them). */
function addressNumber(text: string): bigint | undefined {
  const family = isIP(text);
  if (family === 4) return 0xffff00000000n + text.split('.').reduce((n, octet) => (n << 8n) + BigInt(octet), 0n);
  if (family !== 6) return undefined;
  let [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':') : []);
  let left = groups(head);
  let right = groups(tail);
  // A dotted IPv4 tail counts as two groups.
  const dotted = (list: string[]) => {
    const last = list.at(-1);
    if (!last?.includes('.')) return list;
    const v4 = last.split('.').map(Number);
    return [...list.slice(0, -1), ((v4[0] << 8) | v4[1]).toString(16), ((v4[2] << 8) | v4[3]).toString(16)];
  };
  if (tail === undefined) left = dotted(left);
  else right = dotted(right);
  const all = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return all.reduce((n, g) => (n << 16n) + BigInt(parseInt(g || '0', 16)), 0n);
}

const ipPoint: RangePoint<bigint> = {
  parse: (text) => addressNumber(text),
  bounds(stored) {
    const slash = stored.indexOf('/');
    if (slash > 0) {
      const base = addressNumber(stored.slice(0, slash));
      if (base === undefined) return undefined;
      const bits = Number(stored.slice(slash + 1)) + (isIP(stored.slice(0, slash)) === 4 ? 96 : 0);
      const size = 1n << BigInt(128 - bits);
      const low = base - (base % size);
      return [low, low + size - 1n];
    }
    const ends = split(stored, '-');
    const low = ends && addressNumber(ends[0]);
    const high = ends && addressNumber(ends[1]);
    return low !== undefined && high !== undefined ? [low, high] : undefined;
  },
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  refusal: (text) => `failed to create query: '${text}' is not an IP string literal.`,
};

const RANGE_POINTS: Record<string, RangePoint<any>> = {
  ip_range: ipPoint,
  long_range: numberPoint,
  integer_range: numberPoint,
  double_range: numberPoint,
  float_range: numberPoint,
  date_range: datePoint,
};
