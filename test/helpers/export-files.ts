import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

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
    if (m) env[m[1]] = `value-for-${m[1].toLowerCase()}`;
  }
  return env;
}
