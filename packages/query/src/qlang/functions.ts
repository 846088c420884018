import { inCidr } from '../text-match.js';
import { createRequire } from 'node:module';
import { OfflineError } from './offline-error.js';

/**
 * qlang functions: the names the language knows (the server's function registry, by family, with
 * its aliases), the aggregations STATS may use, and the offline implementations of the common ones.
 * A known function without an offline implementation parses and checks, and makes `run` fail with
 * a clear error. A name this list lacks is only a note (the server adds functions at each minor).
 * Scalar functions give null for a null argument, and for a multi-valued one where the server
 * expects a single value.
 */

export const AGGREGATIONS = new Set([
  'AVG', 'COUNT', 'COUNT_DISTINCT', 'MAX', 'MEDIAN', 'MEDIAN_ABSOLUTE_DEVIATION', 'MIN', 'PERCENTILE', 'ST_CENTROID_AGG',
  'ST_EXTENT_AGG', 'STD_DEV', 'VARIANCE', 'SUM', 'TOP', 'VALUES', 'WEIGHTED_AVG', 'SAMPLE', 'FIRST', 'LAST', 'ABSENT', 'PRESENT',
]);

/** Per-time-series aggregations of TS queries: a regular aggregation may wrap one (`MAX(RATE(requests))`). */
export const TIME_SERIES_AGGREGATIONS = new Set([
  'RATE', 'IRATE', 'IDELTA', 'DELTA', 'INCREASE', 'AVG_OVER_TIME', 'MAX_OVER_TIME', 'MIN_OVER_TIME', 'SUM_OVER_TIME',
  'COUNT_OVER_TIME', 'COUNT_DISTINCT_OVER_TIME', 'FIRST_OVER_TIME', 'LAST_OVER_TIME', 'PRESENT_OVER_TIME', 'ABSENT_OVER_TIME',
  'STDDEV_OVER_TIME', 'VARIANCE_OVER_TIME',
]);
for (const name of TIME_SERIES_AGGREGATIONS) AGGREGATIONS.add(name);

const SCALARS = new Set([
  // grouping and conditional
  'BUCKET', 'TBUCKET', 'CATEGORIZE', 'CASE', 'COALESCE', 'GREATEST', 'LEAST',
  // dates
  'DATE_DIFF', 'DATE_EXTRACT', 'DATE_FORMAT', 'DATE_PARSE', 'DATE_TRUNC', 'DAY_NAME', 'MONTH_NAME', 'NOW', 'TRANGE',
  // addresses
  'CIDR_MATCH', 'IP_PREFIX',
  // math
  'ABS', 'ACOS', 'ASIN', 'ATAN', 'ATAN2', 'CBRT', 'CEIL', 'COS', 'COSH', 'E', 'EXP', 'FLOOR', 'HYPOT', 'LOG', 'LOG10', 'PI',
  'POW', 'ROUND', 'ROUND_TO', 'SCALB', 'SIGNUM', 'SIN', 'SINH', 'SQRT', 'TAN', 'TANH', 'TAU', 'CLAMP', 'CLAMP_MIN', 'CLAMP_MAX',
  // strings
  'BIT_LENGTH', 'BYTE_LENGTH', 'CONCAT', 'CONTAINS', 'ENDS_WITH', 'FROM_BASE64', 'HASH', 'LEFT', 'LENGTH', 'LOCATE', 'LTRIM',
  'MD5', 'REPEAT', 'REPLACE', 'REVERSE', 'RIGHT', 'RTRIM', 'SHA1', 'SHA256', 'SPACE', 'SPLIT', 'STARTS_WITH', 'SUBSTRING',
  'TO_BASE64', 'TO_LOWER', 'TO_UPPER', 'TRIM', 'URL_ENCODE', 'URL_ENCODE_COMPONENT', 'URL_DECODE', 'JSON_EXTRACT', 'CHUNK',
  // conversions
  'TO_AGGREGATE_METRIC_DOUBLE', 'TO_BOOLEAN', 'TO_CARTESIANPOINT', 'TO_CARTESIANSHAPE', 'TO_DATE_NANOS', 'TO_DATEPERIOD',
  'TO_DATETIME', 'TO_DEGREES', 'TO_DENSE_VECTOR', 'TO_DOUBLE', 'TO_GEOHASH', 'TO_GEOHEX', 'TO_GEOTILE', 'TO_GEOPOINT',
  'TO_GEOSHAPE', 'TO_INTEGER', 'TO_IP', 'TO_LONG', 'TO_RADIANS', 'TO_STRING', 'TO_TIMEDURATION', 'TO_UNSIGNED_LONG', 'TO_VERSION',
  // multi-values
  'MV_APPEND', 'MV_AVG', 'MV_CONCAT', 'MV_CONTAINS', 'MV_COUNT', 'MV_DEDUPE', 'MV_FIRST', 'MV_INTERSECTION', 'MV_LAST', 'MV_MAX',
  'MV_MEDIAN', 'MV_MEDIAN_ABSOLUTE_DEVIATION', 'MV_MIN', 'MV_PERCENTILE', 'MV_PSERIES_WEIGHTED_SUM', 'MV_SLICE', 'MV_SORT',
  'MV_SUM', 'MV_ZIP',
  // search, scoring and vectors
  'MATCH', 'MATCH_PHRASE', 'MULTI_MATCH', 'QSTR', 'KQL', 'SCORE', 'DECAY', 'KNN', 'TEXT_EMBEDDING', 'TOP_SNIPPETS',
  'V_COSINE', 'V_DOT_PRODUCT', 'V_HAMMING', 'V_L1_NORM', 'V_L2_NORM', 'V_MAGNITUDE',
  // spatial
  'ST_CONTAINS', 'ST_DISJOINT', 'ST_DISTANCE', 'ST_ENVELOPE', 'ST_INTERSECTS', 'ST_WITHIN', 'ST_X', 'ST_Y', 'ST_XMAX',
  'ST_XMIN', 'ST_YMAX', 'ST_YMIN', 'ST_GEOHASH', 'ST_GEOTILE', 'ST_GEOHEX',
]);

/** Other names the registry gives a function (EsqlFunctionRegistry: `def(..., "to_integer", "to_int")`). */
const ALIASES: Record<string, string> = {
  BIN: 'BUCKET',
  TO_AGGREGATEMETRICDOUBLE: 'TO_AGGREGATE_METRIC_DOUBLE',
  TO_BOOL: 'TO_BOOLEAN',
  TO_DATENANOS: 'TO_DATE_NANOS',
  TO_DBL: 'TO_DOUBLE',
  TO_DT: 'TO_DATETIME',
  TO_INT: 'TO_INTEGER',
  TO_STR: 'TO_STRING',
  TO_UL: 'TO_UNSIGNED_LONG',
  TO_ULONG: 'TO_UNSIGNED_LONG',
  TO_VER: 'TO_VERSION',
};

/** The registry's own name of a function written under any of its names (upper case in, upper case out). */
export const canonicalFunction = (name: string): string => ALIASES[name] ?? name;

export const isKnownFunction = (name: string) => AGGREGATIONS.has(canonicalFunction(name)) || SCALARS.has(canonicalFunction(name));

/** Every name a function may be written under, for "did you mean". */
export const FUNCTION_NAMES: string[] = [...AGGREGATIONS, ...SCALARS, ...Object.keys(ALIASES)];

type Scalar = (args: unknown[]) => unknown;

const isNull = (v: unknown) => v === null || v === undefined;
/** A single value, or undefined for null and multi-values (the server's single-value functions). */
const one = (v: unknown): unknown => (Array.isArray(v) ? (v.length === 1 ? v[0] : undefined) : isNull(v) ? undefined : v);
const text = (v: unknown): string | undefined => {
  const x = one(v);
  return x === undefined ? undefined : typeof x === 'string' ? x : String(x);
};
const numeric = (v: unknown): number | undefined => {
  const x = one(v);
  if (typeof x === 'number') return x;
  if (typeof x === 'string' && x.trim() !== '' && !Number.isNaN(Number(x))) return Number(x);
  if (typeof x === 'boolean') return x ? 1 : 0;
  return undefined;
};
const nullable = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
const values = (v: unknown): unknown[] => (isNull(v) ? [] : Array.isArray(v) ? v : [v]);

function strings(f: (...s: string[]) => unknown): Scalar {
  return (args) => {
    const s = args.map(text);
    return s.some((x) => x === undefined) ? null : f(...(s as string[]));
  };
}

function numbers(f: (...n: number[]) => unknown): Scalar {
  return (args) => {
    const n = args.map(numeric);
    return n.some((x) => x === undefined) ? null : f(...(n as number[]));
  };
}

const MS: Record<string, number> = {
  millisecond: 1, second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000,
};

/** Truncates an epoch-ms time to a span's boundary (months, quarters and years by calendar, in UTC). */
export function truncateTime(ms: number, amount: number, unit: string): number {
  const d = new Date(ms);
  if (unit === 'month' || unit === 'quarter' || unit === 'year') {
    const months = amount * (unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12);
    const total = d.getUTCFullYear() * 12 + d.getUTCMonth();
    const start = total - (total % months);
    return Date.UTC(Math.floor(start / 12), start % 12, 1);
  }
  const size = amount * MS[unit]!;
  // Weeks start on Monday, as the server's week rounding does: epoch day 0 was a Thursday.
  const shift = unit === 'week' ? 3 * 86_400_000 : 0;
  return Math.floor((ms + shift) / size) * size - shift;
}

export const SCALAR_IMPLEMENTATIONS: Record<string, Scalar> = {
  TO_LOWER: strings((s) => s.toLowerCase()),
  TO_UPPER: strings((s) => s.toUpperCase()),
  LENGTH: strings((s) => [...s].length),
  TRIM: strings((s) => s.trim()),
  LTRIM: strings((s) => s.trimStart()),
  RTRIM: strings((s) => s.trimEnd()),
  STARTS_WITH: strings((s, p) => s.startsWith(p!)),
  ENDS_WITH: strings((s, p) => s.endsWith(p!)),
  CONTAINS: strings((s, p) => s.includes(p!)),
  CONCAT: strings((...s) => s.join('')),
  REVERSE: strings((s) => [...s].reverse().join('')),
  LEFT: (args) => nullable(text(args[0])?.slice(0, numeric(args[1]) ?? 0)),
  RIGHT: (args) => {
    const s = text(args[0]);
    const n = numeric(args[1]);
    return s === undefined || n === undefined ? null : n <= 0 ? '' : s.slice(-n);
  },
  SUBSTRING: (args) => {
    const s = text(args[0]);
    const start = numeric(args[1]);
    if (s === undefined || start === undefined) return null;
    // 1-based start; a negative start counts from the end.
    const from = start < 0 ? Math.max(0, s.length + start) : Math.max(0, start - 1);
    const length = args.length > 2 ? numeric(args[2]) : undefined;
    return length === undefined ? s.slice(from) : s.slice(from, from + length);
  },
  REPLACE: strings((s, regex, replacement) => replaceAll(s, regex!, replacement!)),
  SPLIT: strings((s, sep) => {
    const parts = s.split(sep!);
    return parts.length === 1 ? parts[0] : parts;
  }),
  TO_STRING: (args) => {
    const v = args[0];
    if (isNull(v)) return null;
    return Array.isArray(v) ? v.map(String) : String(v);
  },
  TO_INTEGER: numbers((n) => Math.trunc(n)),
  TO_LONG: numbers((n) => Math.trunc(n)),
  TO_DOUBLE: numbers((n) => n),
  TO_BOOLEAN: (args) => {
    const v = one(args[0]);
    if (v === undefined) return null;
    if (typeof v === 'boolean') return v;
    if (typeof v === 'number') return v !== 0;
    return String(v).toLowerCase() === 'true';
  },
  ABS: numbers(Math.abs),
  CEIL: numbers(Math.ceil),
  FLOOR: numbers(Math.floor),
  ROUND: numbers((n, digits = 0) => Math.round(n * 10 ** digits) / 10 ** digits),
  POW: numbers((a, b) => a ** b!),
  SQRT: numbers((n) => (n < 0 ? null : Math.sqrt(n))),
  COALESCE: (args) => args.find((a) => !isNull(a) && !(Array.isArray(a) && a.length === 0)) ?? null,
  GREATEST: (args) => (args.some(isNull) ? null : args.flatMap(values).reduce((a: any, b: any) => (b > a ? b : a))),
  LEAST: (args) => (args.some(isNull) ? null : args.flatMap(values).reduce((a: any, b: any) => (b < a ? b : a))),
  MV_COUNT: (args) => (isNull(args[0]) ? null : values(args[0]).length),
  MV_FIRST: (args) => values(args[0])[0] ?? null,
  MV_LAST: (args) => values(args[0]).at(-1) ?? null,
  MV_DEDUPE: (args) => {
    const unique = [...new Set(values(args[0]))];
    return unique.length === 0 ? null : unique.length === 1 ? unique[0] : unique;
  },
  MV_CONCAT: (args) => (isNull(args[0]) || isNull(args[1]) ? null : values(args[0]).map(String).join(String(one(args[1])))),
  MV_CONTAINS: (args) => {
    const have = values(args[0]);
    return values(args[1]).every((v) => have.includes(v));
  },
  CIDR_MATCH: (args) => {
    const ip = text(args[0]);
    return ip === undefined ? null : args.slice(1).flatMap(values).some((r) => typeof r === 'string' && inCidr(ip, r));
  },
};

/** The aggregations STATS evaluates offline, over the values of a group (nulls already removed). */
export const AGGREGATION_IMPLEMENTATIONS: Record<string, (values: unknown[], rows: number) => unknown> = {
  COUNT: (v) => v.length,
  COUNT_DISTINCT: (v) => new Set(v.map((x) => JSON.stringify(x))).size,
  SUM: (v) => (v.length === 0 ? null : v.reduce((a: number, b) => a + Number(b), 0)),
  AVG: (v) => (v.length === 0 ? null : v.reduce((a: number, b) => a + Number(b), 0) / v.length),
  MIN: (v) => (v.length === 0 ? null : v.reduce((a: any, b: any) => (b < a ? b : a))),
  MAX: (v) => (v.length === 0 ? null : v.reduce((a: any, b: any) => (b > a ? b : a))),
  VALUES: (v) => {
    const unique = [...new Set(v)];
    return unique.length === 0 ? null : unique.length === 1 ? unique[0] : unique;
  },
  MEDIAN: (v) => {
    if (v.length === 0) return null;
    const s = v.map(Number).sort((a, b) => a - b);
    const mid = Math.floor(s.length / 2);
    return s.length % 2 ? s[mid] : (s[mid - 1]! + s[mid]!) / 2;
  },
};

type Re2 = typeof import('re2js');
let re2: Re2 | undefined;
/** Compiled REPLACE patterns of this process, few per query; bounded so a long run cannot grow it. */
const REPLACE_PATTERNS = new Map<string, ReturnType<Re2['RE2JS']['compile']>>();

/**
 * ES|QL REPLACE: every match of a Java regex replaced, `$1` naming a group. Evaluated with RE2
 * (re2js, loaded on first use: most runs evaluate no REPLACE), which never backtracks, so a
 * pattern such as `(a+)+b` from a pull request cannot hang `svcform test` or a preview. RE2 lacks
 * backreferences and lookaround; a pattern using them is not evaluated offline, said plainly.
 */
function replaceAll(text: string, regex: string, replacement: string): string {
  re2 ??= createRequire(import.meta.url)('re2js') as Re2;
  let pattern = REPLACE_PATTERNS.get(regex);
  if (!pattern) {
    try {
      pattern = re2.RE2JS.compile(regex);
    } catch (err) {
      throw new OfflineError(`REPLACE ${JSON.stringify(regex)} is not evaluated offline: ${(err as Error).message}`);
    }
    if (REPLACE_PATTERNS.size >= 256) REPLACE_PATTERNS.clear();
    REPLACE_PATTERNS.set(regex, pattern);
  }
  return pattern.matcher(text).replaceAll(replacement);
}

