import { parseWildcardText, wildcardMatcher, type TextTest } from './regex/wildcard.js';

/**
 * Pattern helpers the evaluators share: wildcard patterns (`*` any run, `?` one character, as eql's
 * `:`/`like` and qlang's LIKE read them) and CIDR ranges.
 */

/**
 * A wildcard pattern as a test of whole values, matched without backtracking
 * (src/query/regex/wildcard.ts). `\*` and `\?` match themselves.
 */
export function wildcardMatch(pattern: string, caseInsensitive: boolean): TextTest {
  return wildcardMatcher(parseWildcardText(pattern), caseInsensitive);
}

/** The old name, which qlang's evaluator still imports: the same linear matcher. */
export const wildcardRegex = wildcardMatch;

/** The address as a bit string (32 bits for IPv4, 128 for IPv6), or undefined when malformed. */
function addressBits(text: string): string | undefined {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) {
    const parts = text.split('.').map(Number);
    if (parts.some((p) => p > 255)) return undefined;
    return parts.map((p) => p.toString(2).padStart(8, '0')).join('');
  }
  if (!text.includes(':')) return undefined;
  let address = text;
  // An IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (v4) {
    const bits = addressBits(v4[1]!);
    if (!bits) return undefined;
    address = address.slice(0, v4.index) + `${parseInt(bits.slice(0, 16), 2).toString(16)}:${parseInt(bits.slice(16), 2).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  return groups.map((g) => parseInt(g, 16).toString(2).padStart(16, '0')).join('');
}

/** Whether an address lies in a CIDR range (`10.0.0.0/8`, `fe80::/10`) or equals a bare address. */
export function inCidr(address: string, range: string): boolean {
  const [base, prefixText] = range.split('/');
  const ip = addressBits(address);
  const net = addressBits(base ?? '');
  if (!ip || !net || ip.length !== net.length) return false;
  const prefix = prefixText === undefined ? net.length : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > net.length) return false;
  return ip.slice(0, prefix) === net.slice(0, prefix);
}

/** Whether a CIDR range or address is well-formed. */
export function isCidr(range: string): boolean {
  const [base, prefixText, extra] = range.split('/');
  const bits = addressBits(base ?? '');
  if (!bits || extra !== undefined) return false;
  if (prefixText === undefined) return true;
  return /^\d+$/.test(prefixText) && Number(prefixText) <= bits.length;
}

/** An event's time in epoch milliseconds (numbers are epoch ms; strings ISO 8601), or undefined. */
export function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}
