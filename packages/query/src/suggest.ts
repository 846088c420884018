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

/** Three rows of the distance table, kept between calls: a run compares thousands of pairs. */
let rows = new Int32Array(0);

/**
 * Optimal string alignment distance (insertions, deletions, substitutions and adjacent swaps cost
 * 1) when it is at most `bound`, else `bound + 1`. Only the cells within `bound` of the diagonal
 * can hold a distance within the bound, so only they are computed (a band of 2 * bound + 1 cells
 * a row, in three rows reused from call to call), and it stops as soon as a whole row is past the
 * bound. A query field's near miss compares each of ~600 unknown names of the real rules with
 * ~2,700 known ones: 1.1 s with full rows allocated per call, against the figures in
 * docs/architecture.md ("Did you mean") this way.
 */
export function editDistanceWithin(a: string, b: string, bound: number): number {
  const n = a.length;
  const m = b.length;
  const out = bound + 1;
  if (Math.abs(n - m) > bound) return out;
  if (m === 0) return n;
  const width = m + 1;
  if (rows.length < 3 * width) rows = new Int32Array(3 * width * 2);
  let before = 0;
  let prev = width;
  let cur = 2 * width;
  for (let j = 0; j <= m; j++) rows[prev + j] = j <= bound ? j : out;
  for (let i = 1; i <= n; i++) {
    const lo = i - bound > 1 ? i - bound : 1;
    const hi = i + bound < m ? i + bound : m;
    // The cell left of the band: column 0, or a cell too far from the diagonal.
    const left = lo === 1 && i <= bound ? i : out;
    rows[cur + lo - 1] = left;
    const ca = a.charCodeAt(i - 1);
    const caBefore = i > 1 ? a.charCodeAt(i - 2) : -1;
    let rowMin = left;
    for (let j = lo; j <= hi; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = rows[prev + j - 1]! + (ca === cb ? 0 : 1);
      const up = rows[prev + j]! + 1;
      if (up < d) d = up;
      const side = rows[cur + j - 1]! + 1;
      if (side < d) d = side;
      if (j > 1 && ca === b.charCodeAt(j - 2) && caBefore === cb) {
        const swap = rows[before + j - 2]! + 1;
        if (swap < d) d = swap;
      }
      if (d > out) d = out;
      rows[cur + j] = d;
      if (d < rowMin) rowMin = d;
    }
    // The cell right of the band, which the next row reads as the one above it.
    if (hi < m) rows[cur + hi + 1] = out;
    if (rowMin > bound) return out;
    const free = before;
    before = prev;
    prev = cur;
    cur = free;
  }
  const d = rows[prev + m]!;
  return d < out ? d : out;
}

let searches = 0;

/** How many near-miss searches this process has made (the rule checks search once per distinct name: a test counts them). */
export function nearMissSearches(): number {
  return searches;
}

/**
 * Names of one vocabulary (field names) grouped by length, to find a near miss of a word: a name
 * at most `nearMissDistance` edits away, case ignored. Only names whose length is within that
 * distance are compared, each with the early-exit distance above.
 */
export class NearMissIndex {
  /** Names by length, each with its lower-case form and its characters (made once, not per comparison). */
  private readonly byLength = new Map<number, Array<{ name: string; lower: string; chars: number }>>();

  constructor(names: Iterable<string>) {
    for (const name of names) {
      if (name.length > SUGGEST_MAX_CHARS) continue;
      let bucket = this.byLength.get(name.length);
      if (!bucket) this.byLength.set(name.length, (bucket = []));
      const lower = name.toLowerCase();
      bucket.push({ name, lower, chars: charactersOf(lower) });
    }
  }

  /** The closest name within the near-miss distance of `word` (not `word` itself), if any. */
  nearest(word: string): string | undefined {
    searches++;
    if (word.length > SUGGEST_MAX_CHARS) return undefined;
    const bound = nearMissDistance(word);
    const lower = word.toLowerCase();
    const chars = charactersOf(lower);
    let best: string | undefined;
    let bestScore = bound + 1;
    for (let delta = 0; delta <= bound && delta < bestScore; delta++) {
      for (const length of delta === 0 ? [word.length] : [word.length - delta, word.length + delta]) {
        for (const { name, lower: other, chars: its } of this.byLength.get(length) ?? []) {
          if (name === word) continue;
          // Each edit brings at most one character in and takes at most one out: a name with more
          // characters absent from the word (or the other way round) than allowed is out of reach,
          // and most names are, so most comparisons end here.
          if (bitCount(chars & ~its) >= bestScore || bitCount(its & ~chars) >= bestScore) continue;
          const d = editDistanceWithin(lower, other, bestScore - 1);
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
 * The characters of a word as a 32-bit set (a character's code modulo 32): letters, digits, `.`
 * and `_` of field names fall mostly apart, and characters that share a bit only make the lower
 * bound above smaller, never wrong.
 */
function charactersOf(word: string): number {
  let set = 0;
  for (let i = 0; i < word.length; i++) set |= 1 << (word.charCodeAt(i) & 31);
  return set;
}

function bitCount(n: number): number {
  n -= (n >>> 1) & 0x55555555;
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * How far a near miss may be: one edit in a name of up to 10 characters, two in a longer one.
 * Tighter than `closest`'s, because a near miss raises a warning by itself: a real field of an
 * integration is rarely this close to an ECS field, a typo usually is.
 */
export function nearMissDistance(word: string): number {
  return word.length <= 10 ? 1 : 2;
}
