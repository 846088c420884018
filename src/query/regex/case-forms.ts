/**
 * Case-insensitive forms of a character, as Lucene's RegExp CASE_INSENSITIVE flag folds them
 * (which its older ASCII_CASE_INSENSITIVE flag now means too): every code point with the same
 * simple case folding, so `k` also matches the Kelvin sign and `σ` matches `ς` and `Σ`. A
 * character whose case mapping is several characters folds only with itself.
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

/** Every cased script lies below U+20000. */
const CASED_LIMIT = 0x20000;
let classes: Map<number, number[]> | undefined;

function caseClasses(): Map<number, number[]> {
  if (classes) return classes;
  classes = new Map();
  for (let c = 0; c < CASED_LIMIT; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const key = caseKey(c);
    if (key === c && single(String.fromCodePoint(c).toUpperCase()) === c) continue;
    const members = classes.get(key);
    if (members) {
      if (!members.includes(c)) members.push(c);
    }
    else classes.set(key, key === c ? [c] : [key, c]);
  }
  return classes;
}

/** The character and its other case forms (just the character when it has none). */
export function caseForms(c: number): number[] {
  const members = caseClasses().get(caseKey(c));
  return members && members.includes(c) ? members : [c];
}
