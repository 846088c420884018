import { isIP } from 'node:net';

/** List types the API accepts (wire-facts 3.2). */
export const LIST_TYPES = [
  'binary', 'boolean', 'byte', 'date', 'date_nanos', 'date_range', 'double', 'double_range', 'float',
  'float_range', 'geo_point', 'geo_shape', 'half_float', 'integer', 'integer_range', 'ip', 'ip_range',
  'keyword', 'long', 'long_range', 'shape', 'short', 'text',
] as const;

const INTEGER_RANGES: Record<string, [bigint, bigint]> = {
  byte: [-128n, 127n],
  short: [-32768n, 32767n],
  integer: [-2147483648n, 2147483647n],
  long: [-9223372036854775808n, 9223372036854775807n],
};

function isInteger(value: string, type: string): boolean {
  if (!/^[+-]?\d+$/.test(value.trim())) return false;
  const n = BigInt(value.trim());
  const [min, max] = INTEGER_RANGES[type];
  return n >= min && n <= max;
}

function isNumber(value: string): boolean {
  return value.trim() !== '' && Number.isFinite(Number(value));
}

function isDate(value: string): boolean {
  return /^\d+$/.test(value) || !Number.isNaN(Date.parse(value));
}

function isCidr(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const family = isIP(value.slice(0, slash));
  const bitsText = value.slice(slash + 1);
  if (!family || !/^\d{1,3}$/.test(bitsText)) return false;
  return Number(bitsText) <= (family === 4 ? 32 : 128);
}

// The list stream maps ip_range as the search backend's ip_range: a CIDR, an `a-b` range of
// addresses, or a single address.
function isIpRange(value: string): boolean {
  if (isCidr(value) || isIP(value)) return true;
  const dash = value.indexOf('-');
  return dash > 0 && isIP(value.slice(0, dash)) !== 0 && isIP(value.slice(dash + 1)) !== 0;
}

function isNumericRange(value: string, integer: boolean): boolean {
  const m = /^(-?[\d.]+)-(-?[\d.]+)$/.exec(value);
  if (!m) return false;
  return [m[1], m[2]].every((x) => (integer ? /^-?\d+$/.test(x) : isNumber(x)));
}

/**
 * Whether the search backend would index `value` in a field of the list's type. Types without a
 * cheap check (geo shapes, binary) accept any non-empty string.
 */
export function valueFits(type: string, value: string): boolean {
  if (value.length === 0) return false;
  switch (type) {
    case 'ip':
      return isIP(value) !== 0;
    case 'ip_range':
      return isIpRange(value);
    case 'byte':
    case 'short':
    case 'integer':
    case 'long':
      return isInteger(value, type);
    case 'double':
    case 'float':
    case 'half_float':
      return isNumber(value);
    case 'date':
    case 'date_nanos':
      return isDate(value);
    case 'boolean':
      return value === 'true' || value === 'false';
    case 'integer_range':
    case 'long_range':
      return isNumericRange(value, true);
    case 'float_range':
    case 'double_range':
      return isNumericRange(value, false);
    default:
      return true;
  }
}

/** The backend's mapping failure text, as the security app passes it through with a 400. */
export function valueError(type: string, value: string, itemId: string): string {
  return `failed to parse field [${type}] of type [${type}] in document with id '${itemId}'. Preview of field's value: '${value}'`;
}
