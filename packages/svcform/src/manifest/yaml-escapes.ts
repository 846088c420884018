/**
 * The escapes of YAML 1.2 double-quoted scalars: what the fast reader decodes (yaml-fast-scalars.ts)
 * and what the source positions of a value's characters are followed by (scalar-position.ts). An
 * escaped line break is not here: it folds lines.
 */

const SINGLE: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029',
  ' ': ' ', '"': '"', '/': '/', '\\': '\\', '\t': '\t',
};
const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

export interface Escape {
  /** What the escape stands for. */
  chars: string;
  /** How many characters of the source it takes, its backslash included. */
  length: number;
}

/**
 * The escape whose backslash is at text[at]; undefined where YAML has none (an unknown letter, too
 * few hex digits, a code point beyond Unicode): the full parser reports those.
 */
export function decodeEscape(text: string, at: number): Escape | undefined {
  const letter = text[at + 1];
  if (letter === undefined) return undefined;
  const single = SINGLE[letter];
  if (single !== undefined) return { chars: single, length: 2 };
  const digits = HEX_DIGITS[letter];
  if (digits === undefined) return undefined;
  const hex = text.slice(at + 2, at + 2 + digits);
  if (hex.length !== digits || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
  const code = parseInt(hex, 16);
  if (code > 0x10ffff) return undefined;
  return { chars: String.fromCodePoint(code), length: 2 + digits };
}
