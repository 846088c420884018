/**
 * Time arithmetic of a rule preview, as the preview route runs a rule (K-DE
 * rule_preview/api/preview_rules/route.ts): the last of `invocationCount` runs starts at
 * `timeframeEnd`, each earlier one an `interval` before; each run searches from its rule's `from`
 * (date math relative to the run's start, default now-6m) to its `to` (default now).
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000, M: 30 * 86_400_000, y: 365 * 86_400_000 };

/** A rule `interval` (`5m`, `1h`, `30s`, `1d`) in ms, or undefined. */
export function intervalMs(interval: string): number | undefined {
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(interval.trim());
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : undefined;
}

/** Date math (`now-6m`, `now-1h/h`, `now`, or an absolute date) resolved against a run's start. */
export function resolveDateMath(expression: string, now: number): number | undefined {
  const text = expression.trim();
  if (!text.startsWith('now')) {
    const absolute = Date.parse(text);
    return Number.isNaN(absolute) ? undefined : absolute;
  }
  let at = now;
  const ops = /([+-])(\d+)(ms|[yMwdhms])|\/(ms|[yMwdhms])/g;
  let consumed = 3;
  for (const m of text.slice(3).matchAll(ops)) {
    if (m.index !== consumed - 3) return undefined;
    consumed += m[0].length;
    if (m[4]) at = roundDown(at, m[4]);
    else at += (m[1] === '-' ? -1 : 1) * Number(m[2]) * UNIT_MS[m[3]!]!;
  }
  return consumed === text.length ? at : undefined;
}

function roundDown(ms: number, unit: string): number {
  const d = new Date(ms);
  if (unit === 'y') return Date.UTC(d.getUTCFullYear(), 0, 1);
  if (unit === 'M') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  if (unit === 'w') {
    const day = (d.getUTCDay() + 6) % 7; // weeks start on Monday
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day);
  }
  const size = UNIT_MS[unit]!;
  return Math.floor(ms / size) * size;
}

export interface Invocation {
  startedAt: number;
  from: number;
  to: number;
}

/** The runs of a preview, oldest first; undefined when the interval or the date math is malformed. */
export function invocations(rule: { interval: string; from: string; to: string }, timeframeEnd: number, count: number): Invocation[] | undefined {
  const step = intervalMs(rule.interval);
  if (step === undefined) return undefined;
  const runs: Invocation[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const startedAt = timeframeEnd - step * i;
    const from = resolveDateMath(rule.from, startedAt);
    const to = resolveDateMath(rule.to, startedAt);
    if (from === undefined || to === undefined) return undefined;
    runs.push({ startedAt, from, to });
  }
  return runs;
}
