import type { Document, Node } from 'yaml';
import { yaml } from '../common/yaml.js';
import type { DocPath } from './types.js';
import type { FastDocument } from './yaml-fast.js';
import { valueStartAfterKey } from './scalar-position.js';

/** Where a string value starts in its file, for each YAML reader (scalar-position.ts maps inside it). */

/** The node at `path`, if there is one. */
export function nodeAt(doc: Document.Parsed, path: DocPath): Node | null | undefined {
  const { isMap, isPair, isScalar, isSeq } = yaml();
  let node: Node | null | undefined = doc.contents as Node;
  for (const step of path) {
    if (isMap(node)) node = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(step))?.value as Node | null | undefined;
    else if (isSeq(node) && typeof step === 'number') node = node.items[step] as Node | undefined;
    else return undefined;
  }
  return node;
}

/** Where the scalar at `path` starts, from the fast reader's tables (its values start on their key's line). */
export function fastScalarStart(text: string, doc: FastDocument, path: DocPath): number | undefined {
  if (path.length === 0) return undefined;
  const { value, offsets } = doc.positions();
  let parent: unknown = value;
  for (const step of path.slice(0, -1)) parent = parent !== null && typeof parent === 'object' ? (parent as Record<string | number, unknown>)[step] : undefined;
  const table = parent !== null && typeof parent === 'object' ? offsets.get(parent) : undefined;
  if (!table) return undefined;
  const last = path[path.length - 1]!;
  if (Array.isArray(table)) return typeof last === 'number' ? table[last] : undefined;
  const key = table[String(last)];
  return key === undefined ? undefined : valueStartAfterKey(text, key);
}
