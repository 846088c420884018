import type { CheckIssue, DocPath, Resource } from '../../manifest/types.js';
import { isPlainObject } from '../normalize.js';
import { declaredItems } from './items.js';

/**
 * An exception item's item_id is unique across every list of its namespace: the single lists of a
 * space (a rule's default list among them) or the agnostic lists of all spaces. The create route
 * looks the item_id up without its list and answers 409 `exception list item id: "<id>" already
 * exists` (the lists plugin's create_exception_list_item_route; the emulator's exception area).
 * Two manifests that declare the same item_id there cannot both be applied, whatever their lists,
 * so the second is an error at validate, as a repeat inside one list already is
 * (`checkItems` of list.ts). The Terraform provider's acceptance configurations reuse one item_id
 * across lists, each in a run of its own.
 */

interface Holder {
  res: Resource;
  path: DocPath;
}

/** Where the items of a manifest live: its ExceptionList items, or a Rule's default_exceptions. */
function itemsOf(res: Resource): Array<{ itemId: string; path: DocPath; scope: string }> {
  let found: ReturnType<typeof declaredItems>;
  let scope: string;
  try {
    if (res.kind === 'Rule') {
      if (!isPlainObject(res.spec.default_exceptions)) return [];
      found = declaredItems(res, res.spec.default_exceptions, ['spec', 'default_exceptions']);
      scope = `single\u0000${res.space}`;
    } else {
      found = declaredItems(res);
      scope = res.spec.namespace_type === 'agnostic' ? 'agnostic' : `single\u0000${res.space}`;
    }
  } catch {
    return []; // an items_file that cannot be read is the document's own error
  }
  return found.flatMap(({ item, path }) => (typeof item?.item_id === 'string' && item.item_id !== '' ? [{ itemId: item.item_id, path: path.at(-1) === 'items_file' ? path : [...path, 'item_id'], scope }] : []));
}

/** The first holder of each (scope, item_id), per validation run (one `declared` each). */
const FIRST_HOLDERS = new WeakMap<object, Map<string, Holder>>();

function firstHolders(declared: (kind: string, name?: string) => Resource[]): Map<string, Holder> {
  let first = FIRST_HOLDERS.get(declared);
  if (!first) {
    first = new Map();
    for (const res of [...declared('ExceptionList'), ...declared('Rule')]) {
      for (const { itemId, path, scope } of itemsOf(res)) {
        const key = `${scope}\u0000${itemId}`;
        if (!first.has(key)) first.set(key, { res, path });
      }
    }
    FIRST_HOLDERS.set(declared, first);
  }
  return first;
}

/** Errors for the items of `res` whose item_id another manifest's item took first. */
export function itemIdClashes(res: Resource, declared: (kind: string, name?: string) => Resource[]): CheckIssue[] {
  const own = itemsOf(res);
  if (own.length === 0) return [];
  const first = firstHolders(declared);
  const out: CheckIssue[] = [];
  for (const { itemId, path, scope } of own) {
    const holder = first.get(`${scope}\u0000${itemId}`);
    if (!holder || holder.res === res) continue;
    const where = holder.res.posOf(holder.path);
    const lists = scope === 'agnostic' ? 'the agnostic lists of every space' : `the lists of space ${res.space}`;
    out.push({
      path,
      message: `item_id ${JSON.stringify(itemId)} is taken by ${holder.res.kind}/${holder.res.name} (${where.file}:${where.line}): the server keeps item ids unique across ${lists}, and refuses a second one (409); give one of them another item_id`,
    });
  }
  return out;
}
