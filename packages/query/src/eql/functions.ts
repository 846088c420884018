import { inCidr } from '../text-match.js';
import { arithmetic } from '../arithmetic.js';

/**
 * The functions eql knows: exactly those of the server's registry (x-pack/plugin/eql
 * EqlFunctionRegistry: between, cidrMatch, concat, endsWith, indexOf, length, startsWith, string,
 * stringContains, substring, add, divide, modulo, multiply, number, subtract; the old wildcard()
 * and match() are gone from it), with their argument counts, whether a case-insensitive `~`
 * variant exists (the registry's CaseInsensitiveScalarFunction ones), and their offline
 * implementation. Arguments arrive evaluated; a null argument gives null, as on the server,
 * except where a function says otherwise.
 */

export type Value = unknown;

interface FunctionSpec {
  min: number;
  max: number;
  insensitive: boolean;
  apply(args: Value[], insensitive: boolean): Value;
}

const str = (v: Value): string | null => (v === null || v === undefined ? null : typeof v === 'string' ? v : String(v));
const num = (v: Value): number | null => {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return null;
};
const fold = (s: string, insensitive: boolean) => (insensitive ? s.toLowerCase() : s);
const anyNull = (args: Value[]) => args.some((a) => a === null || a === undefined);

/** eql's math functions: string arguments that read as numbers count as numbers. */
const math = (op: string) => (args: Value[]) => arithmetic(op, num(args[0]), num(args[1]));

export const FUNCTIONS: Record<string, FunctionSpec> = {
  add: { min: 2, max: 2, insensitive: false, apply: math('+') },
  subtract: { min: 2, max: 2, insensitive: false, apply: math('-') },
  multiply: { min: 2, max: 2, insensitive: false, apply: math('*') },
  divide: { min: 2, max: 2, insensitive: false, apply: math('/') },
  modulo: { min: 2, max: 2, insensitive: false, apply: math('%') },
  between: {
    min: 3,
    max: 4,
    insensitive: true,
    apply(args, insensitive) {
      const [source, left, right] = args.slice(0, 3).map(str);
      if (source === null || left === null || right === null) return null;
      const greedy = args[3] === true;
      const s = fold(source!, insensitive);
      const start = s.indexOf(fold(left!, insensitive));
      if (start < 0) return '';
      const from = start + left!.length;
      const end = greedy ? s.lastIndexOf(fold(right!, insensitive)) : s.indexOf(fold(right!, insensitive), from);
      return end < from ? '' : source!.slice(from, end);
    },
  },
  cidrmatch: {
    min: 2,
    max: Infinity,
    insensitive: false,
    apply(args) {
      const ip = str(args[0]);
      if (ip === null) return null;
      return args.slice(1).some((range) => typeof range === 'string' && inCidr(ip, range));
    },
  },
  concat: {
    min: 1,
    max: Infinity,
    insensitive: false,
    apply: (args) => (anyNull(args) ? null : args.map((a) => str(a)).join('')),
  },
  endswith: {
    min: 2,
    max: 2,
    insensitive: true,
    apply(args, insensitive) {
      const [s, suffix] = args.map(str);
      return s === null || suffix === null ? null : fold(s!, insensitive).endsWith(fold(suffix!, insensitive));
    },
  },
  startswith: {
    min: 2,
    max: 2,
    insensitive: true,
    apply(args, insensitive) {
      const [s, prefix] = args.map(str);
      return s === null || prefix === null ? null : fold(s!, insensitive).startsWith(fold(prefix!, insensitive));
    },
  },
  stringcontains: {
    min: 2,
    max: 2,
    insensitive: true,
    apply(args, insensitive) {
      const [s, part] = args.map(str);
      return s === null || part === null ? null : fold(s!, insensitive).includes(fold(part!, insensitive));
    },
  },
  indexof: {
    min: 2,
    max: 3,
    insensitive: true,
    apply(args, insensitive) {
      const [s, part] = args.map(str);
      if (s === null || part === null) return null;
      const from = args[2] === undefined || args[2] === null ? 0 : num(args[2]) ?? 0;
      const at = fold(s!, insensitive).indexOf(fold(part!, insensitive), from);
      return at < 0 ? null : at;
    },
  },
  length: {
    min: 1,
    max: 1,
    insensitive: false,
    apply: ([s]) => (s === null || s === undefined ? null : Array.isArray(s) ? s.length : String(s).length),
  },
  number: {
    min: 1,
    max: 2,
    insensitive: false,
    apply([s, base]) {
      if (s === null || s === undefined) return null;
      if (typeof s === 'number') return s;
      const text = String(s).trim();
      const radix = base === undefined || base === null ? 10 : num(base) ?? 10;
      if (radix === 10) return Number.isNaN(Number(text)) ? null : Number(text);
      const parsed = parseInt(text.replace(/^0x/i, ''), radix);
      return Number.isNaN(parsed) ? null : parsed;
    },
  },
  string: { min: 1, max: 1, insensitive: false, apply: ([v]) => str(v) },
  substring: {
    min: 2,
    max: 3,
    insensitive: false,
    apply(args) {
      const s = str(args[0]);
      const start = num(args[1]);
      if (s === null || start === null) return null;
      const end = args[2] === undefined || args[2] === null ? s.length : num(args[2]) ?? s.length;
      // Negative positions count from the end, as in Python slicing (eql's documented behaviour).
      const norm = (i: number) => (i < 0 ? Math.max(0, s.length + i) : Math.min(i, s.length));
      return s.slice(norm(start), norm(end));
    },
  },
};

/** What to write instead of a function the server no longer has. */
export const REMOVED_FUNCTIONS: Record<string, string> = {
  wildcard: 'use the ":" or "like" operator',
  match: 'use the "regex" operator',
};

/** The function of that name (names are case-insensitive: `startsWith`, `startswith`). */
export function functionSpec(name: string): FunctionSpec | undefined {
  return Object.prototype.hasOwnProperty.call(FUNCTIONS, name.toLowerCase()) ? FUNCTIONS[name.toLowerCase()] : undefined;
}
