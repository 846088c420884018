/**
 * The members of one list of strings missing from another, compared as sets, for lists of any
 * size: a value list of a million values is compared on every plan, and the server answers its
 * values in an order of its own (the items export sorts by tie_breaker_id, random on the real
 * server), so the lists are rarely in the same order.
 *
 * Both lists are laid out in buckets by a hash of each string (a counting sort: two passes and
 * typed arrays, no Map), and only strings of the same bucket are compared, by their full hash
 * first and then by value: the result is exact whatever the hash does. On a million IPv4 values
 * each way, in chunks of another order, a Map of one list and a lookup of each value of the other
 * took 1.2-1.3 s; the buckets take 0.42-0.72 s (issue 10; `npm run bench:lists` shows the plan).
 */

export type StringHash = (s: string) => number;

/** FNV-1a over the UTF-16 code units: cheap, and spreads the near-identical values of a feed (10.0.0.1, 10.0.0.2...). */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A bucket holding more strings than this (one value repeated many times, say) is compared through a Set. */
const SMALL_BUCKET = 32;

interface Buckets {
  /** Full hash of each string, by its index. */
  hashes: Uint32Array;
  /** Bucket b holds order[start[b]] .. order[start[b + 1] - 1], in increasing index order. */
  start: Int32Array;
  order: Int32Array;
}

function buckets(values: readonly string[], mask: number, hash: StringHash): Buckets {
  const n = values.length;
  const hashes = new Uint32Array(n);
  const start = new Int32Array(mask + 2);
  for (let i = 0; i < n; i++) {
    const h = hash(values[i]) >>> 0;
    hashes[i] = h;
    start[(h & mask) + 1]++;
  }
  for (let b = 0; b <= mask; b++) start[b + 1] += start[b];
  const next = start.slice(0, mask + 1);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[next[hashes[i] & mask]++] = i;
  return { hashes, start, order };
}

/**
 * Members of `after` missing from `before` (`added`) and of `before` missing from `after`
 * (`removed`): each once, at its first occurrence, in the order of its own list.
 * `hash` is replaceable so that tests can make every string collide.
 */
export function stringSetDifference(before: readonly string[], after: readonly string[], hash: StringHash = fnv1a): { added: string[]; removed: string[] } {
  let size = 1;
  while (size < Math.max(before.length, after.length)) size *= 2;
  const mask = size - 1;
  const a = buckets(before, mask, hash);
  const b = buckets(after, mask, hash);
  const removed: number[] = [];
  const added: number[] = [];
  for (let k = 0; k <= mask; k++) {
    const a0 = a.start[k];
    const a1 = a.start[k + 1];
    const b0 = b.start[k];
    const b1 = b.start[k + 1];
    if (a1 - a0 === 1 && b1 - b0 === 1) {
      // Most buckets of two equal sets: one string each side.
      const i = a.order[a0];
      const j = b.order[b0];
      if (a.hashes[i] !== b.hashes[j] || before[i] !== after[j]) {
        removed.push(i);
        added.push(j);
      }
    } else if (a1 > a0 || b1 > b0) {
      missingFrom(before, a, a0, a1, after, b, b0, b1, removed);
      missingFrom(after, b, b0, b1, before, a, a0, a1, added);
    }
  }
  return { added: inOrder(after, added), removed: inOrder(before, removed) };
}

/** Indices of the bucket's strings of `mine` (first occurrences) that the same bucket of `theirs` lacks, into `out`. */
function missingFrom(mine: readonly string[], m: Buckets, m0: number, m1: number, theirs: readonly string[], t: Buckets, t0: number, t1: number, out: number[]): void {
  if (m1 - m0 > SMALL_BUCKET || t1 - t0 > SMALL_BUCKET) {
    const present = new Set<string>();
    for (let y = t0; y < t1; y++) present.add(theirs[t.order[y]]);
    const seen = new Set<string>();
    for (let x = m0; x < m1; x++) {
      const i = m.order[x];
      if (seen.has(mine[i])) continue;
      seen.add(mine[i]);
      if (!present.has(mine[i])) out.push(i);
    }
    return;
  }
  for (let x = m0; x < m1; x++) {
    const i = m.order[x];
    const h = m.hashes[i];
    let repeated = false;
    for (let x2 = m0; x2 < x && !repeated; x2++) repeated = m.hashes[m.order[x2]] === h && mine[m.order[x2]] === mine[i];
    if (repeated) continue;
    let found = false;
    for (let y = t0; y < t1 && !found; y++) found = t.hashes[t.order[y]] === h && theirs[t.order[y]] === mine[i];
    if (!found) out.push(i);
  }
}

function inOrder(values: readonly string[], indices: number[]): string[] {
  return Array.from(Int32Array.from(indices).sort(), (i) => values[i]);
}
