import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The ECS field set shipped with svcform (data/ecs-fields.txt): name to type. The emulator uses it
 * for required_fields[].ecs, validation to tell known fields from typos. Read once, on first use.
 */

const DATA_FILE = join('data', 'ecs-fields.txt');
const KNOWN_FILE = join('data', 'ecs-known-fields.txt');

function dataFile(name = DATA_FILE): string {
  // The same walk up works from src/ and from the compiled dist/src/.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, name))) return join(dir, name);
    dir = dirname(dir);
  }
  throw new Error(`cannot find ${name} above ${fileURLToPath(import.meta.url)}`);
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

/**
 * Every field a source document may carry under ECS (data/ecs-known-fields.txt): what a query may
 * name as an ECS field. Wider than ecsFieldTypes: constant_keyword fields (data_stream.*),
 * multi-fields (process.command_line.text), nested and flattened fields; `open` holds the prefixes
 * (`labels.`) of fields that take any child.
 */
export interface KnownFields {
  names: ReadonlySet<string>;
  open: readonly string[];
  has(name: string): boolean;
}

let knownFields: KnownFields | undefined;

export function parseKnownFields(text: string): KnownFields {
  const names = new Set<string>();
  const open: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.endsWith('.*')) open.push(line.slice(0, -1));
    else names.add(line);
  }
  // A name is under an open prefix (`labels.`) when the part of it up to one of its dots is one:
  // a lookup per dot, where trying each of the 84 prefixes was 28 ms of a first plan of 2,068
  // rules (checkRuleQueries asks for every field every query names).
  const openSet = new Set(open);
  const underOpen = (name: string): boolean => {
    for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) if (openSet.has(name.slice(0, dot + 1))) return true;
    return false;
  };
  return { names, open, has: (name) => names.has(name) || underOpen(name) };
}

export function ecsKnownFields(): KnownFields {
  knownFields ??= parseKnownFields(readFileSync(dataFile(KNOWN_FILE), 'utf8'));
  return knownFields;
}
