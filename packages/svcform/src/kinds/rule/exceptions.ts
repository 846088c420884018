import { endpointListOfId } from '../../common/endpoint-artifacts.js';
import { displayField } from '../../manifest/schema.js';
import type { Resource } from '../../manifest/types.js';
import { declaredItems, comparableItems, findLists, itemsOfLists, itemSpec, reconcileItems, type Item } from '../exception/items.js';
import { runLookup } from '../run-lookup.js';
import { isPlainObject } from '../normalize.js';
import type { AdapterContext, CheckIssue, LiveObject, Reference } from '../types.js';

/**
 * A rule's exceptions, kept apart from rule.ts:
 * - `exceptions_list` links shared lists by `list_id` (+ `namespace_type`, `type`); the server wants
 *   each link's saved-object `id` too, which is looked up when the rule is written, so a manifest
 *   never holds a server id. Links are ExceptionList references (ordering, dangling deletes).
 * - `default_exceptions: {items: [...]}` is the rule's own `rule_default` list. The first items are
 *   added through POST /api/detection_engine/rules/{id}/exceptions, which creates the list and
 *   links it to the rule (security_solution create_rule_exceptions/route.ts,
 *   createAndAssociateDefaultExceptionList); later changes are item writes to that list.
 */

type Link = { id?: string; list_id: string; namespace_type?: string; type?: string };

const DEFAULT_LINK_TYPE = 'detection';
const RULE_DEFAULT = 'rule_default';

const links = (spec: Record<string, any>): Link[] => (Array.isArray(spec.exceptions_list) ? spec.exceptions_list : []);

/** A link's type when the manifest leaves it out: the endpoint lists' own (their list_ids are fixed), else detection. */
const linkType = (link: Link) => link.type ?? endpointListOfId(link.list_id)?.type ?? DEFAULT_LINK_TYPE;

export function exceptionListReferences(spec: Record<string, any>): Reference[] {
  const refs: Reference[] = [];
  links(spec).forEach((link, i) => {
    if (linkType(link) !== RULE_DEFAULT && typeof link?.list_id === 'string') {
      // Accepted when missing (wire-facts §16 #8): a write sends a stand-in id (resolvedLinks).
      refs.push({ kind: 'ExceptionList', name: link.list_id, path: ['spec', 'exceptions_list', i, 'list_id'], whenMissing: 'accepted', missingEffect: 'the rule applies no exceptions from it until it exists' });
    }
  });
  return refs;
}

/**
 * The rule's exception fields in compared form: links without server ids (the default list's link
 * left out: it is compared through its items), and the default list's items keyed by item_id.
 */
export function comparableExceptions(rule: Record<string, any>, defaultItems: Item[]): Record<string, any> {
  rule.exceptions_list = links(rule)
    .filter((l) => linkType(l) !== RULE_DEFAULT)
    .map((l) => ({ list_id: l.list_id, namespace_type: l.namespace_type ?? 'single', type: linkType(l) }));
  delete rule.default_exceptions;
  if (defaultItems.length > 0) rule.default_exceptions = { items: comparableItems(defaultItems) };
  return rule;
}

export function desiredDefaultItems(res: Resource): Item[] {
  if (!isPlainObject(res.spec.default_exceptions)) return [];
  return declaredItems(res, res.spec.default_exceptions, ['spec', 'default_exceptions']).map((d) => d.item);
}

export const liveDefaultItems = (live: LiveObject): Item[] => live.extra?.defaultExceptions ?? [];

export function checkDefaultExceptions(res: Resource): CheckIssue[] {
  if (!isPlainObject(res.spec.default_exceptions)) return [];
  const out: CheckIssue[] = [];
  const seen = new Set<string>();
  let items;
  try {
    items = declaredItems(res, res.spec.default_exceptions, ['spec', 'default_exceptions']);
  } catch (err) {
    return [{ path: ['spec', 'default_exceptions', 'items_file'], message: (err as Error).message }];
  }
  for (const { item, path } of items) {
    if (seen.has(item.item_id)) out.push({ path: [...path, 'item_id'], message: `${displayField([...path, 'item_id'])}: item_id ${JSON.stringify(item.item_id)} appears twice; item_ids must be unique` });
    seen.add(item.item_id);
  }
  const linked = links(res.spec).findIndex((l) => l.type === RULE_DEFAULT);
  if (linked >= 0) out.push({ path: ['spec', 'exceptions_list', linked, 'type'], message: 'the rule_default list is not linked by hand: declare its items in spec.default_exceptions' });
  return out;
}

/** Reads the default lists' items of the listed rules: one `_find` per page for up to 50 rules that have one. */
export async function withDefaultExceptions(ctx: AdapterContext, space: string, rules: LiveObject[]): Promise<LiveObject[]> {
  const listIdOf = (r: LiveObject) => links(r.body).find((l) => l.type === RULE_DEFAULT)?.list_id;
  const ids = rules.map(listIdOf).filter((id): id is string => typeof id === 'string');
  if (ids.length === 0) return rules;
  const items = await itemsOfLists(ctx.api, space, [...new Set(ids)], 'single');
  return rules.map((r) => {
    const id = listIdOf(r);
    return id === undefined ? r : { ...r, extra: { ...r.extra, defaultExceptions: items.get(id) ?? [] } };
  });
}

/**
 * The lists a space sees (its own and the agnostic ones), by namespace_type and list_id: one listing
 * per space and run, which is the plan's own listing of ExceptionList where it made one (the lists
 * rules link are read to check the links). The plan places agnostic lists in its home space, so in
 * another space a link to one misses there and reads both namespaces once more.
 */
const listKey = (namespaceType: string, listId: string) => `${namespaceType}\u0000${listId}`;
const byKey = (lists: Item[]) => new Map(lists.map((l): [string, Item] => [listKey(l.namespace_type, l.list_id), l]));
const exceptionList = runLookup(
  async (ctx, space) => {
    const [single, agnostic] = await Promise.all([findLists(ctx.api, space, 'single'), findLists(ctx.api, space, 'agnostic')]);
    return byKey([...single, ...agnostic]);
  },
  { kind: 'ExceptionList', from: (lists) => byKey(lists.map((l) => l.body as Item)) },
);

/**
 * The links a write sends: each declared link with its list's id looked up, then the rule's
 * default-list link as the server holds it. A list the server does not hold is linked all the same,
 * as the server allows (wire-facts §16 #8; the plan warned): its id is the manifest's `id`, else
 * the list_id as a stand-in. Rules find their exception items by list_id and namespace_type, and
 * svcform compares links without ids, so the stand-in is never a change.
 */
export async function resolvedLinks(ctx: AdapterContext, res: Resource, live: LiveObject | undefined): Promise<Link[]> {
  const out: Link[] = [];
  for (const link of links(res.spec)) {
    const namespaceType = link.namespace_type ?? 'single';
    const found = await exceptionList(ctx, res.space, listKey(namespaceType, link.list_id));
    out.push({ id: found?.id ?? link.id ?? link.list_id, list_id: link.list_id, namespace_type: namespaceType, type: found?.type ?? linkType(link) });
  }
  const own = live ? links(live.body).find((l) => l.type === RULE_DEFAULT) : undefined;
  if (own) out.push(own);
  return out;
}

function defaultItemBody(item: Item): Item {
  return { ...itemSpec({ ...item, comments: item.comments ?? [] }), type: 'simple' };
}

/** After the rule itself is written: its default list's items brought to the manifest's. */
export async function writeDefaultExceptions(ctx: AdapterContext, res: Resource, rule: Record<string, any>, live: LiveObject | undefined): Promise<void> {
  const desired = desiredDefaultItems(res);
  const link = links(rule).find((l) => l.type === RULE_DEFAULT);
  if (!link) {
    if (desired.length === 0) return;
    await ctx.api.request({ method: 'POST', path: `/api/detection_engine/rules/${encodeURIComponent(rule.id)}/exceptions`, space: res.space, body: { items: desired.map(defaultItemBody) } });
    return;
  }
  await reconcileItems(ctx.api, { listId: link.list_id, namespaceType: 'single', space: res.space }, desired, live ? liveDefaultItems(live) : []);
}

/** Export: links by list_id (no server ids), and the default list's items as `default_exceptions`. */
export function exceptionsToSpec(spec: Record<string, any>, live: LiveObject): void {
  const shared = links(spec).filter((l) => l.type !== RULE_DEFAULT);
  if (shared.length) {
    spec.exceptions_list = shared.map((l) => {
      const out: Link = { list_id: l.list_id };
      if ((l.namespace_type ?? 'single') !== 'single') out.namespace_type = l.namespace_type;
      if (l.type && l.type !== linkType({ list_id: l.list_id })) out.type = l.type;
      return out;
    });
  } else delete spec.exceptions_list;
  const items = liveDefaultItems(live);
  if (items.length) spec.default_exceptions = { items: items.map(itemSpec) };
}
