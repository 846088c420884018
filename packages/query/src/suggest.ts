/** "Did you mean": the likely intended word for a misspelt field, kind or value. */

/** Words longer than this get no "did you mean": no field or value svcform knows is near that long. */
export const SUGGEST_MAX_CHARS = 64;

/**
 * The candidate closest to `word`, if it is close enough to be a likely typo: edit distance with
 * transpositions, case-insensitive, at most 1 for short words and about a third of longer ones.
 * Bounded work whatever the input: long words are not compared at all, and a candidate whose
 * length alone puts it out of reach is skipped, so a 10 MB key costs nothing here.
 */
export function closest(word: string, candidates: string[]): string | undefined {
  if (word.length > SUGGEST_MAX_CHARS) return undefined;
  const allowed = word.length <= 4 ? 1 : Math.max(2, Math.floor(word.length / 3));
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestScore = allowed + 1;
  for (const c of candidates) {
    if (c.length > SUGGEST_MAX_CHARS || Math.abs(c.length - word.length) >= bestScore) continue;
    const d = editDistanceWithin(lower, c.toLowerCase(), bestScore - 1);
    if (d < bestScore) {
      bestScore = d;
      best = c;
    }
  }
  return best;
}

/**
 * Optimal string alignment distance (insertions, deletions, substitutions and adjacent swaps cost
 * 1) when it is at most `bound`, else `bound + 1`: it stops as soon as a whole row is past the
 * bound, so comparing a word with thousands of far candidates costs a row or two each. Three rows,
 * not a matrix.
 */
export function editDistanceWithin(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > bound) return bound + 1;
    [before, prev, cur] = [prev, cur, before];
  }
  return Math.min(prev[b.length]!, bound + 1);
}

/**
 * Names of one vocabulary (field names) grouped by length, to find a near miss of a word: a name
 * at most `nearMissDistance` edits away, case ignored. Only names whose length is within that
 * distance are compared, each with the early-exit distance above.
 */
export class NearMissIndex {
  private readonly byLength = new Map<number, string[]>();

  constructor(names: Iterable<string>) {
    for (const name of names) {
      if (name.length > SUGGEST_MAX_CHARS) continue;
      let bucket = this.byLength.get(name.length);
      if (!bucket) this.byLength.set(name.length, (bucket = []));
      bucket.push(name);
    }
  }

  /** The closest name within the near-miss distance of `word` (not `word` itself), if any. */
  nearest(word: string): string | undefined {
    if (word.length > SUGGEST_MAX_CHARS) return undefined;
    const bound = nearMissDistance(word);
    const lower = word.toLowerCase();
    let best: string | undefined;
    let bestScore = bound + 1;
    for (let delta = 0; delta <= bound && delta < bestScore; delta++) {
      for (const length of delta === 0 ? [word.length] : [word.length - delta, word.length + delta]) {
        for (const name of this.byLength.get(length) ?? []) {
          if (name === word) continue;
          const d = editDistanceWithin(lower, name.toLowerCase(), bestScore - 1);
          if (d < bestScore) {
            bestScore = d;
            best = name;
          }
        }
      }
    }
    return best;
  }
}

/**
 * How far a near miss may be: one edit in a name of up to 10 characters, two in a longer one.
 * Tighter than `closest`'s, because a near miss raises a warning by itself: a real field of an
 * integration is rarely this close to an ECS field, a typo usually is.
 */
export function nearMissDistance(word: string): number {
  return word.length <= 10 ? 1 : 2;
}
