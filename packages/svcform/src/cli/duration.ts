import { UsageError } from './usage-error.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration flag (`30s`, `5m`, `1h`, `1h30m`, `500ms`) in milliseconds. A bare number is refused:
 * whether `5` meant seconds or minutes is exactly the mistake a reconcile loop should not guess.
 */
export function parseDuration(flag: string, text: string, minMs = 0): number {
  const trimmed = text.trim();
  const parts = /^(?:\d+(?:ms|s|m|h))+$/.test(trimmed) ? [...trimmed.matchAll(/(\d+)(ms|s|m|h)/g)] : [];
  if (parts.length === 0) {
    throw new UsageError(`${flag} must be a duration such as 30s, 5m, 1h or 1h30m (units ms, s, m, h), not ${JSON.stringify(text)}`);
  }
  const ms = parts.reduce((sum, [, n, unit]) => sum + Number(n) * UNIT_MS[unit], 0);
  if (ms < minMs) throw new UsageError(`${flag} must be at least ${formatDuration(minMs)}, not ${text}`);
  return ms;
}

/** The shortest spelling parseDuration reads back (`90000` -> `1m30s`). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  let rest = ms;
  let out = '';
  for (const unit of ['h', 'm', 's', 'ms']) {
    const n = Math.floor(rest / UNIT_MS[unit]);
    if (n > 0) out += `${n}${unit}`;
    rest -= n * UNIT_MS[unit];
  }
  return out;
}
