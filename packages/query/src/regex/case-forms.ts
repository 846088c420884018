/**
 * Case-insensitive forms of a character, as Lucene's RegExp CASE_INSENSITIVE flag folds them
 * (which its older ASCII_CASE_INSENSITIVE flag now means too): every code point with the same
 * simple case folding, so `k` also matches the Kelvin sign and `σ` matches `ς` and `Σ`. A
 * character whose case mapping is several characters folds only with itself. The classes come
 * from JavaScript's case mappings, which agree with Lucene's folding table but for a few
 * characters (the Turkish dotted and dotless i among them).
 */

function single(text: string): number | undefined {
  const c = text.codePointAt(0)!;
  return text.length === String.fromCodePoint(c).length ? c : undefined;
}

/** The representative of a character's case class: its lower case of its upper case. */
export function caseKey(c: number): number {
  const upper = single(String.fromCodePoint(c).toUpperCase()) ?? c;
  return single(String.fromCodePoint(upper).toLowerCase()) ?? upper;
}

/**
 * Characters whose case class cannot be reached from its other members by upper- and lower-casing
 * (the Kelvin sign, the long s, final sigma, title-case digraphs, Greek symbol forms): found by
 * walking every code point below U+20000 once, which takes a quarter of a second, too long to do
 * on each run. Their classes are looked up here; every other class is reached by case mapping.
 */
const UNREACHABLE: ReadonlyArray<number | [number, number]> = [
  0xb5, 0x131, 0x17f, 0x1c5, 0x1c8, 0x1cb, 0x1f2, 0x345, 0x3c2, 0x3d0, 0x3d1, 0x3d5, 0x3d6, 0x3f0, 0x3f1, 0x3f4, 0x3f5,
  [0x1c80, 0x1c88], 0x1e9b, 0x1e9e, [0x1f88, 0x1f8f], [0x1f98, 0x1f9f], [0x1fa8, 0x1faf], 0x1fbc, 0x1fbe, 0x1fcc, 0x1ffc,
  0x2126, 0x212a, 0x212b,
];

let unreachableByKey: Map<number, number[]> | undefined;

function unreachableMembers(key: number): number[] {
  if (!unreachableByKey) {
    unreachableByKey = new Map();
    for (const entry of UNREACHABLE) {
      const [from, to] = typeof entry === 'number' ? [entry, entry] : entry;
      for (let c = from; c <= to; c++) {
        const k = caseKey(c);
        unreachableByKey.set(k, [...(unreachableByKey.get(k) ?? []), c]);
      }
    }
  }
  return unreachableByKey.get(key) ?? [];
}

/** The character and its other case forms (just the character when it has none). */
export function caseForms(c: number): number[] {
  const key = caseKey(c);
  const mapped = (x: number) => [x, single(String.fromCodePoint(x).toUpperCase()), single(String.fromCodePoint(x).toLowerCase())];
  const forms = new Set<number>();
  for (const candidate of [...mapped(c), ...mapped(key), ...unreachableMembers(key)]) {
    if (candidate !== undefined && caseKey(candidate) === key) forms.add(candidate);
  }
  return [...forms];
}
