import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cli } from './cli.js';

/** Every file under a directory (an export), `/`-separated relative path -> content. */
export function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.set(relative(dir, full).split('\\').join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

/** The variables an export listed in variables.txt, each set to a value (never the real secret). */
export function variablesEnv(dir: string): Record<string, string> {
  const file = join(dir, 'variables.txt');
  if (!existsSync(file)) return {};
  const env: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Z0-9_]+)=/.exec(line);
    // A URL where the secret is one (a chat webhookUrl): validate checks such a value parses.
    if (m) env[m[1]] = /URL$/.test(m[1]) ? `https://secrets.example.com/value-for-${m[1].toLowerCase()}` : `value-for-${m[1].toLowerCase()}`;
  }
  return env;
}

/** An export in `dir` validates, and plans against `url` with nothing to do: `unchanged` objects, no create, update or delete. */
export async function expectExportPlansEmpty(dir: string, url: string, unchanged: number): Promise<void> {
  const env = variablesEnv(dir);
  const validated = await cli(['validate', dir, '--root', dir], env);
  assert.equal(validated.code, 0, validated.err);
  const planned = await cli(['plan', dir, '--root', dir, '--url', url, '--detailed-exitcode', '--json'], env);
  assert.equal(planned.code, 0, planned.out + planned.err);
  const summary = JSON.parse(planned.out).summary;
  assert.deepEqual({ ...summary, unmanaged: 0 }, { create: 0, update: 0, delete: 0, unchanged, unmanaged: 0 });
}
