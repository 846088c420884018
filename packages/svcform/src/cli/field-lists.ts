import { statSync } from 'node:fs';
import { dirname, extname, resolve, sep } from 'node:path';
import type { Node } from 'yaml';
import { parseErrorWords, yaml } from '../common/yaml.js';
import { listConfinedFiles, readConfinedFile } from '../manifest/confined-file.js';
import { displayPath } from '../manifest/load.js';
import { quotedText } from '../manifest/short-text.js';
import type { SvcformConfig } from './config.js';
import { UsageError } from './context.js';

/**
 * The project's own field names (svcform.yaml `fields: [files]`), which query field checks accept
 * besides required_fields and ECS. A file is either text, one name per line (`#` comments, blank
 * lines and `[type]` section lines as in data/ecs-fields.txt are skipped; a second word, the type,
 * is allowed), or, named *.yaml/*.yml/*.json, a list of names or of `{name, type}` mappings. A
 * mapping may hold `fields:`, a list of the same whose names are under its own (`{name: aws,
 * type: group, fields: [{name: cloudtrail.user_identity.arn}]}`): an integration package's field
 * definitions (`data_stream/<name>/fields/*.yml`) are such lists, and their other keys
 * (description, example...) are read past. A directory stands for every `fields/*.yml` under it,
 * so a checkout of an integration package (or of a repository of them) declares its fields.
 * Paths are relative to svcform.yaml and confined to the repository root like every file reference.
 */

const MAX_FIELD_LIST_BYTES = 16 * 1024 * 1024;
const FIELD_NAME = /^[^\s]+$/;
/** The field definition files of an integration package: `fields/*.yml` at any depth. */
const PACKAGE_FIELDS_FILE = /(^|\/)fields\/[^/]+\.ya?ml$/;

export function readProjectFields(config: SvcformConfig, root: string): Set<string> {
  const names = new Set<string>();
  const errors: string[] = [];
  const base = dirname(config.file ?? '.');
  for (const ref of config.fields ?? []) {
    const where = `${ref.pos.file}:${ref.pos.line}:${ref.pos.col}`;
    const cannot = (path: string, error: string) => errors.push(`${where}: fields: cannot read ${quotedText(path)}: ${error}`);
    if (statSync(resolve(base, ref.path), { throwIfNoEntry: false })?.isDirectory()) {
      const listed = listConfinedFiles(ref.path, { root, base }, (path) => PACKAGE_FIELDS_FILE.test(path.split(sep).join('/')));
      if (listed.error !== undefined) cannot(ref.path, listed.error);
      for (const path of listed.files ?? []) {
        const file = readConfinedFile(path, { root, base, maxBytes: MAX_FIELD_LIST_BYTES });
        if (file.error !== undefined) cannot(path, file.error);
        else readStructured(file.text, displayPath(path), names, errors);
      }
      continue;
    }
    const file = readConfinedFile(ref.path, { root, base, maxBytes: MAX_FIELD_LIST_BYTES });
    if (file.error !== undefined) {
      cannot(ref.path, file.error);
      continue;
    }
    const shown = displayPath(resolve(base, ref.path));
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
  let doc: ReturnType<typeof parseDocument>;
  try {
    doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  } catch (err) {
    errors.push(`${file}:1:1: invalid YAML: ${parseErrorWords(err)}`);
    return;
  }
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
  const readList = (items: unknown[], prefix: string, where: string) => {
    items.forEach((item, i) => {
      const node = item as Node;
      let name: unknown;
      let children: unknown;
      if (isScalar(node)) name = node.value;
      else if (isMap(node)) {
        name = node.get('name');
        children = node.get('fields');
      }
      if (typeof name !== 'string' || !FIELD_NAME.test(name)) {
        errors.push(`${at(node)}: ${where}[${i}] must be a field name (no spaces) or {name, type}`);
        return;
      }
      const full = prefix + name;
      if (children === undefined) names.add(full);
      else if (isSeq(children)) readList(children.items, `${full}.`, `${where}[${i}].fields`);
      else errors.push(`${at(node)}: ${where}[${i}].fields must be a list of fields`);
    });
  };
  readList(doc.contents.items, '', '');
}
