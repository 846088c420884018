import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The ECS field set shipped with svcform (data/ecs-fields.txt): name to type. The emulator uses it
 * for required_fields[].ecs, validation to tell known fields from typos. Read once, on first use.
 */

const DATA_FILE = join('data', 'ecs-fields.txt');

function dataFile(): string {
  // The same walk up works from src/ and from the compiled dist/src/.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, DATA_FILE))) return join(dir, DATA_FILE);
    dir = dirname(dir);
  }
  throw new Error(`cannot find ${DATA_FILE} above ${fileURLToPath(import.meta.url)}`);
}

let fieldTypes: Map<string, string> | undefined;

/** Reads `[type]` section lines followed by one field name per line; `#` starts a comment. */
export function parseEcsFields(text: string): Map<string, string> {
  const types = new Map<string, string>();
  let type = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) type = section[1]!;
    else types.set(line, type);
  }
  return types;
}

export function ecsFieldTypes(): ReadonlyMap<string, string> {
  fieldTypes ??= parseEcsFields(readFileSync(dataFile(), 'utf8'));
  return fieldTypes;
}
