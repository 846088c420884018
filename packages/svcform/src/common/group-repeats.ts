/**
 * Findings of one cause repeated over many objects (one misspelt field in 40 rules, one missing
 * data view named by 300) are read as one: each group in order of its first member, with the
 * others behind it. Items without a key stay on their own. Validate's diagnostics and the plan's
 * warnings are folded alike.
 */
export function groupRepeats<T>(items: Iterable<T>, keyOf: (item: T) => string | undefined): Array<{ first: T; others: T[] }> {
  const out: Array<{ first: T; others: T[] }> = [];
  const groups = new Map<string, { first: T; others: T[] }>();
  for (const item of items) {
    const key = keyOf(item);
    const group = key === undefined ? undefined : groups.get(key);
    if (group) {
      group.others.push(item);
      continue;
    }
    const entry = { first: item, others: [] as T[] };
    out.push(entry);
    if (key !== undefined) groups.set(key, entry);
  }
  return out;
}
