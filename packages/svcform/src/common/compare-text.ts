/**
 * Code-unit order: the same on every machine. `localeCompare` follows the runner's locale (under
 * LANG=sv_SE.UTF-8 `å` sorts after `z`, under en_US before it), so a plan or an export ordered by
 * it differed between a laptop and CI; its first call also costs about 10 ms setting up ICU.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
