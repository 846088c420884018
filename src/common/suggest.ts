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
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestScore) {
      bestScore = d;
      best = c;
    }
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps cost 1. Three rows, not a matrix. */
function editDistance(a: string, b: string): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      cur[j] = d;
    }
    [before, prev, cur] = [prev, cur, before];
  }
  return prev[b.length];
}
