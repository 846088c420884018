import { isIP } from 'node:net';

/**
 * Which values a value list of each type holds: what the server refuses for certain, which
 * svcform's offline check of ValueList manifests refuses. The server stores each value in a
 * search-backend field of the list's type (wire-facts 3.2: "the value is validated against the list type in the search
 * backend"); where the backend's parsing is not known for certain a value is accepted, so
 * svcform is never stricter than the server.
 * svcform's copy; the emulator keeps its own (packages/emulator/src/facts/), so a wrong value on
 * either side fails the conformance tests instead of agreeing by construction.
 */

/** List types the API accepts (wire-facts 3.2). */
export const LIST_TYPES = [
  'binary', 'boolean', 'byte', 'date', 'date_nanos', 'date_range', 'double', 'double_range', 'float',
  'float_range', 'geo_point', 'geo_shape', 'half_float', 'integer', 'integer_range', 'ip', 'ip_range',
  'keyword', 'long', 'long_range', 'shape', 'short', 'text',
] as const;

const INTEGER_BOUNDS: Record<string, [number, number]> = {
  byte: [-128, 127],
  short: [-32768, 32767],
  integer: [-2147483648, 2147483647],
};
const LONG_BOUNDS: [bigint, bigint] = [-9223372036854775808n, 9223372036854775807n];
/** Above this a float (and a half_float, parsed as a float first) rounds to infinity. */
const FLOAT_MAX = 3.4028235677973366e38;

/**
 * The number a string stands for as the backend's Java parser reads it, or undefined when it is
 * not a number at all. JavaScript reads a few forms Java does not (0x10) and Java a few JavaScript
 * does not (a `d` or `f` suffix, hexadecimal floats): those count as numbers, to stay lenient.
 */
function numberOf(text: string): number | undefined {
  if (text === '') return undefined;
  const n = Number(text);
  if (!Number.isNaN(n) || /^[+-]?NaN$/.test(text)) return n;
  const suffixed = /^(.*\d\.?)[dDfF]$/.exec(text);
  if (suffixed) return numberOf(suffixed[1]);
  if (/^[+-]?0[xX][\da-fA-F]*\.?[\da-fA-F]*[pP][+-]?\d+$/.test(text)) return Number.NaN;
  return undefined;
}

/**
 * Whether `text` is a dotted IPv4 address as the backend reads one (four decimal octets up to 255,
 * no leading zeros, the rule node:net's isIP applies too). Scanned by hand: a million-value ip list
 * is checked on every run, and isIP's regular expression took about four times as long.
 */
function isIPv4(text: string): boolean {
  let octets = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 46;
    if (c === 46) {
      if (digits === 0 || value > 255 || (digits > 1 && text.charCodeAt(i - digits) === 48)) return false;
      octets += 1;
      value = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57 && digits < 3) {
      value = value * 10 + (c - 48);
      digits += 1;
    } else return false;
  }
  return octets === 4;
}

const isAddress = (text: string) => isIPv4(text) || isIP(text) !== 0;

function cidrProblem(value: string): string | undefined {
  const slash = value.indexOf('/');
  const family = isIP(value.slice(0, slash));
  const bits = value.slice(slash + 1);
  if (!family) return `not a CIDR: ${value.slice(0, slash) || '(nothing)'} before the / is not an IP address`;
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128)) return `not a CIDR: an IPv${family} prefix is 0 to ${family === 4 ? 32 : 128} bits, not /${bits}`;
  return undefined;
}

/**
 * ip_range as the lists plugin sends it: a CIDR, `a-b` (two addresses), or one address. An address
 * holds no dash, so a value with more than one has no reading the backend accepts.
 */
function ipRangeProblem(value: string): string | undefined {
  if (value.includes('/')) return cidrProblem(value);
  const ends = value.split('-');
  if (ends.length === 1) return isAddress(value) ? undefined : 'not an IP address, a CIDR or a range a-b of addresses';
  if (ends.length > 2) return 'not an IP address, a CIDR or a range a-b of addresses';
  const bad = ends.find((end) => !isAddress(end.trim()));
  return bad === undefined ? undefined : `not a range of addresses: ${bad.trim() || '(nothing)'} is not an IP address`;
}

function integerProblem(type: string, text: string): string | undefined {
  const n = numberOf(text);
  if (n === undefined) return 'not a number';
  if (type === 'long') {
    // Past 2^53 a double cannot tell the bound from its neighbours: whole numbers compare exactly.
    if (/^[+-]?\d+$/.test(text)) {
      const big = BigInt(text);
      return big < LONG_BOUNDS[0] || big > LONG_BOUNDS[1] ? `out of the range of a long (${LONG_BOUNDS[0]} to ${LONG_BOUNDS[1]})` : undefined;
    }
    return Math.abs(n) > 9.3e18 ? `out of the range of a long (${LONG_BOUNDS[0]} to ${LONG_BOUNDS[1]})` : undefined;
  }
  const [min, max] = INTEGER_BOUNDS[type];
  // A decimal part is truncated (the backend coerces by default), so 4.2 is a fine integer.
  return n < min || n > max ? `out of the range of ${type === 'integer' ? 'an' : 'a'} ${type} (${min} to ${max})` : undefined;
}

function floatProblem(type: string, text: string): string | undefined {
  const n = numberOf(text);
  if (n === undefined) return 'not a number';
  // The backend stores finite numbers only ("supports only finite values").
  const max = type === 'double' ? Number.MAX_VALUE : FLOAT_MAX;
  return Number.isNaN(n) && /NaN/.test(text) ? `not a finite number` : Math.abs(n) > max ? `out of the range of a ${type}` : undefined;
}

/**
 * Why the server refuses `value` in a list of `type`, in words that complete "VALUE is ...", or
 * undefined when it accepts it or may. Surrounding blanks are not judged.
 */
export function listValueProblem(type: string, value: string): string | undefined {
  const text = value.trim();
  if (text === '') return 'empty';
  switch (type) {
    case 'ip':
      return isAddress(text) ? undefined : 'not an IP address';
    case 'ip_range':
      return ipRangeProblem(text);
    case 'byte':
    case 'short':
    case 'integer':
    case 'long':
      return integerProblem(type, text);
    case 'double':
    case 'float':
    case 'half_float':
      return floatProblem(type, text);
    case 'boolean':
      return text === 'true' || text === 'false' ? undefined : 'not true or false';
    case 'date':
    case 'date_nanos':
      // Every date format and epoch_millis has digits; which strings with digits parse is not certain here.
      return /\d/.test(text) ? undefined : 'not a date (no digits)';
    default:
      // keyword, text, binary, the shapes and the numeric and date ranges: not judged.
      return undefined;
  }
}

/**
 * What a list item reads back as, for a value written to a list of `type` (the `value` of `_find`
 * and the lines of `_export`). The lists plugin parses each written value with the default
 * serializers the OpenAPI document gives for `serializer` (`(?<value>.+)` for single values,
 * `(?<gte>.+)-(?<lte>.+)|(?<value>.+)` for ranges, a comma for dates and geo points) on the trimmed
 * value, trims the parts, and reads them back through the default deserializers (`{{{gte}}}-{{{lte}}}`,
 * `{{{gte}}},{{{lte}}}`, `{{{lat}}},{{{lon}}}`, `{{{value}}}`): so a single address in an ip_range
 * list reads back as `a-a`, a geo_shape `lat,lon` as `POINT (lon lat)`, and surrounding blanks go
 * (lists plugin services/utils/transform_list_item_to_elastic_query.ts, find_source_value.ts).
 * Applying it to its own result changes nothing. `undefined`: nothing is stored (a blank value).
 */
export function storedListValue(type: string, value: string): string | undefined {
  const text = value.trim();
  switch (type) {
    case 'ip_range':
    case 'double_range':
    case 'float_range':
    case 'integer_range':
    case 'long_range':
    case 'date_range': {
      const m = (type === 'date_range' ? DATE_RANGE : LTE_GTE).exec(text)?.groups;
      const sep = type === 'date_range' ? ',' : '-';
      if (m?.gte !== undefined && m.lte !== undefined) return `${m.gte.trim()}${sep}${m.lte.trim()}`;
      if (m?.value === undefined) return undefined;
      const one = m.value.trim();
      // A CIDR is stored as it is; any other single value as the range from it to itself.
      return type === 'ip_range' && one.includes('/') ? one : `${one}${sep}${one}`;
    }
    case 'geo_point':
    case 'geo_shape':
    case 'shape': {
      const m = LAT_LON.exec(text)?.groups;
      if (m?.lat === undefined || m.lon === undefined) return text;
      return type === 'geo_point' ? `${m.lat.trim()},${m.lon.trim()}` : `POINT (${m.lon.trim()} ${m.lat.trim()})`;
    }
    default: {
      // The common case costs no regular expression: nothing to trim and no line terminator inside.
      if (value === text && !/[\r\u2028\u2029]/.test(value)) return value;
      const m = SINGLE.exec(text)?.groups;
      return m?.value !== undefined ? m.value.trim() : value;
    }
  }
}

const SINGLE = /(?<value>.+)/;
const LTE_GTE = /(?<gte>.+)-(?<lte>.+)|(?<value>.+)/;
const DATE_RANGE = /(?<gte>.+),(?<lte>.+)|(?<value>.+)/;
const LAT_LON = /(?<lat>.+),(?<lon>.+)/;

/**
 * List types whose read or delete by value is not an equality: `text` is matched word by word, a
 * range by the ranges holding the value (and a delete, querying again with the ranges it found,
 * fails), and a shape or point gets the same `term` query on a geo field, which is no plain
 * equality and which the search backend may refuse (lists plugin services/utils/
 * get_query_filter_from_type_value.ts, items/delete_list_item_by_value.ts). Their items are
 * deleted by id.
 */
export const INEXACT_VALUE_TYPES: ReadonlySet<string> = new Set(['text', 'ip_range', 'double_range', 'float_range', 'integer_range', 'long_range', 'date_range', 'geo_point', 'geo_shape', 'shape']);
