import type { CheckIssue, DocPath, Resource } from '../../manifest/types.js';
import type { LiveObject, ManifestWarning, PlanChangeView } from '../types.js';
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

/**
 * Plan warnings for the items a list's create or update adds whose item_id a live list of the
 * namespace holds on the server, since the create route will refuse them (409). Where the plan takes
 * the item out of that list (its update or its delete), the item moves: both writes go out side by
 * side, so the add can still be refused on the first apply, and a second one finishes the move.
 */
export function itemsHeldElsewhere(
  changes: readonly PlanChangeView[],
  liveOf: (res: Resource) => LiveObject | undefined | 'unknown',
  liveIn: (kind: string, space: string) => readonly LiveObject[] | undefined,
): ManifestWarning[] {
  const out: ManifestWarning[] = [];
  // What the plan leaves in a live list: nothing when it deletes it, its manifest's items when it
  // updates it, everything it holds otherwise (undefined).
  const keptIds = new Map<LiveObject, Set<string> | undefined>();
  const keptBy = (list: LiveObject): Set<string> | undefined => {
    if (!keptIds.has(list)) {
      const change = changes.find((c) => c.kind === 'ExceptionList' && c.space === list.space && c.name === list.name);
      keptIds.set(list, change?.action === 'delete' ? new Set() : change?.action === 'update' && change.resource ? new Set(itemsOf(change.resource).map((i) => i.itemId)) : undefined);
    }
    return keptIds.get(list);
  };
  for (const change of changes) {
    const res = change.resource;
    if (change.kind !== 'ExceptionList' || (change.action !== 'create' && change.action !== 'update') || !res) continue;
    const lists = liveIn('ExceptionList', res.space);
    if (!lists) continue;
    const own = liveOf(res);
    const had = new Set<string>((own && own !== 'unknown' ? (own.extra?.items ?? []) : []).map((i: { item_id?: string }) => i.item_id));
    const agnostic = res.spec.namespace_type === 'agnostic';
    const holders = new Map<string, LiveObject>();
    for (const list of lists) {
      if (list.name === res.name || !!list.spaceless !== agnostic) continue;
      for (const item of list.extra?.items ?? []) if (typeof item?.item_id === 'string') holders.set(item.item_id, list);
    }
    for (const { itemId, path } of itemsOf(res)) {
      const holder = holders.get(itemId);
      if (had.has(itemId) || !holder) continue;
      const kept = keptBy(holder);
      const takenOut = kept !== undefined && !kept.has(itemId);
      out.push({
        resource: res,
        path,
        message: takenOut
          ? `item_id ${JSON.stringify(itemId)} moves here from exception list ${JSON.stringify(holder.name)}, which this plan takes it out of; both writes go out side by side and the server refuses this item while that list still holds it (409), so the first apply may leave the move to a second`
          : `item_id ${JSON.stringify(itemId)} is held by exception list ${JSON.stringify(holder.name)} on the server, which this plan leaves as it is: item ids are unique across the lists of a namespace, so the server will refuse this item (409); give it another item_id, or take it out of that list`,
      });
    }
  }
  return out;
}
