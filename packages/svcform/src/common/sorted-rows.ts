import type { Hash } from 'node:crypto';

/**
 * Feeds `hash` the rows of `items` in string order, each followed by a newline: the bytes of
 * `rows.sort().join('\n') + '\n'`, without holding every row at once. A row is `lead`, a NUL, then
 * `rest`, and is made only when hashed. When the leads are distinct and hold no NUL, whole rows
 * sort as their leads do (two rows first differ within their leads or at the NUL ending the shorter),
 * so the items are sorted by lead alone; otherwise every row is made and sorted. At 2,068 real
 * rules the rows of a plan's fingerprint are 16 MB: held, joined and then encoded, they were three
 * copies of it, and a saved plan of 20,000 generated rules peaked at 2.1-2.3 GB (0.8-0.9 GB now).
 */
export function hashSortedRows<T>(hash: Hash, items: readonly T[], lead: (item: T) => string, rest: (item: T) => string): void {
  const keyed = items.map((item) => ({ item, lead: lead(item) }));
  keyed.sort((a, b) => (a.lead < b.lead ? -1 : a.lead > b.lead ? 1 : 0));
  const apart = keyed.every((k, i) => !k.lead.includes('\u0000') && (i === 0 || keyed[i - 1]!.lead !== k.lead));
  if (apart) {
    for (const k of keyed) hash.update(`${k.lead}\u0000${rest(k.item)}\n`);
    return;
  }
  const rows = keyed.map((k) => `${k.lead}\u0000${rest(k.item)}`).sort();
  for (const row of rows) hash.update(`${row}\n`);
}
