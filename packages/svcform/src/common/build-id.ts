import { readFileSync } from 'node:fs';

/**
 * This build's id: a hash of the built code (scripts/build-id.mjs writes dist/src/build-id.json).
 * Undefined when svcform runs without that file (not built by `npm run build`): then nothing is
 * kept between runs, since nothing could tell which code computed it.
 */
let known: string | null | undefined;

export function buildId(): string | undefined {
  if (known === undefined) {
    try {
      const parsed = JSON.parse(readFileSync(new URL('../build-id.json', import.meta.url), 'utf8')) as { id?: unknown };
      known = typeof parsed.id === 'string' && /^[0-9a-f]{16}$/.test(parsed.id) ? parsed.id : null;
    } catch {
      known = null;
    }
  }
  return known ?? undefined;
}
