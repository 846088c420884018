import { dirname, extname, resolve } from 'node:path';
import type { Node } from 'yaml';
import { yaml } from '../common/yaml.js';
import { readConfinedFile } from '../manifest/confined-file.js';
import { displayPath } from '../manifest/load.js';
import { quotedText } from '../manifest/short-text.js';
import type { SvcformConfig } from './config.js';
import { UsageError } from './context.js';

/**
 * The project's own field names (svcform.yaml `fields: [files]`), which query field checks accept
 * besides required_fields and ECS. A file is either text, one name per line (`#` comments, blank
 * lines and `[type]` section lines as in data/ecs-fields.txt are skipped; a second word, the type,
 * is allowed), or, named *.yaml/*.yml/*.json, a list of names or of `{name, type}` mappings. Paths
 * are relative to svcform.yaml and confined to the repository root like every file reference.
 */

const MAX_FIELD_LIST_BYTES = 16 * 1024 * 1024;
const FIELD_NAME = /^[^\s]+$/;

export function readProjectFields(config: SvcformConfig, root: string): Set<string> {
  const names = new Set<string>();
  const errors: string[] = [];
  for (const ref of config.fields ?? []) {
    const where = `${ref.pos.file}:${ref.pos.line}:${ref.pos.col}`;
    const file = readConfinedFile(ref.path, { root, base: dirname(config.file ?? '.'), maxBytes: MAX_FIELD_LIST_BYTES });
    if (file.error !== undefined) {
      errors.push(`${where}: fields: cannot read ${quotedText(ref.path)}: ${file.error}`);
      continue;
    }
    const shown = displayPath(resolve(dirname(config.file ?? '.'), ref.path));
    const ext = extname(ref.path).toLowerCase();
    if (ext === '.yaml' || ext === '.yml' || ext === '.json') readStructured(file.text, shown, names, errors);
    else readLines(file.text, shown, names, errors);
  }
  if (errors.length) throw new UsageError(`invalid field list:\n${errors.join('\n')}`);
  return names;
}

function readLines(text: string, file: string, names: Set<string>, errors: string[]): void {
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || /^\[.+\]$/.test(line)) return;
    const [name, type, ...rest] = line.split(/\s+/);
    if (rest.length > 0) errors.push(`${file}:${i + 1}:1: a line holds a field name and, optionally, its type; found ${quotedText(line)}`);
    else if (name !== undefined && type !== '') names.add(name);
  });
}

function readStructured(text: string, file: string, names: Set<string>, errors: string[]): void {
  const { isMap, isScalar, isSeq, LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const at = (node: Node | null | undefined) => {
    const { line, col } = lines.linePos(node?.range?.[0] ?? 0);
    return `${file}:${line}:${col}`;
  };
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    const { line, col } = lines.linePos(e.pos[0]);
    errors.push(`${file}:${line}:${col}: invalid YAML: ${e.message.split('\n')[0]}`);
    return;
  }
  if (!isSeq(doc.contents)) {
    errors.push(`${at(doc.contents as Node)}: a field list is a list of names or of {name, type} mappings`);
    return;
  }
  doc.contents.items.forEach((item, i) => {
    const node = item as Node;
    let name: unknown;
    if (isScalar(node)) name = node.value;
    else if (isMap(node)) {
      const value = node.toJSON() as Record<string, unknown>;
      const unknown = Object.keys(value).filter((k) => k !== 'name' && k !== 'type');
      if (unknown.length) errors.push(`${at(node)}: [${i}].${unknown[0]} is not a field list setting (name, type)`);
      name = value.name;
    }
    if (typeof name !== 'string' || !FIELD_NAME.test(name)) errors.push(`${at(node)}: [${i}] must be a field name (no spaces) or {name, type}`);
    else names.add(name);
  });
}
