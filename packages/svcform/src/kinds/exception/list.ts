import { yaml } from '../../common/yaml.js';
import { AREAS } from '../../client/areas.js';
import { ApiError } from '../../client/errors.js';
import { artifactItemIssues, endpointListOfId, endpointListOfType } from '../../common/endpoint-artifacts.js';
import { displayField } from '../../manifest/schema.js';
import type { Resource } from '../../manifest/types.js';
import { shortText } from '../../manifest/short-text.js';
import { itemIdClashes, itemsHeldElsewhere } from './item-ids.js';
import { declaredItems, comparableItems, findLists, itemsOfLists, itemSpec, keysKept, LISTS_PATH, readItemsFile, reconcileItems, type Item } from './items.js';
import { deepEqual, isPlainObject } from '../normalize.js';
import type { AdapterContext, CheckIssue, KindAdapter, LiveObject, Reference } from '../types.js';

/**
 * Exception lists (/api/exception_lists) with their items as one object. metadata.name is the
 * list_id; the items (inline or in `items_file`) are the complete set, keyed by item_id: one
 * changed item is one item update (wire-facts 4, 14). Agnostic lists belong to no space
 * (`spaceless`); the endpoint artifact lists are agnostic lists with a fixed list_id whose items
 * are checked offline by the server's own rules (common/endpoint-artifacts.ts).
 */

const KIND = 'ExceptionList';
/** Above this many items, export writes them to a file beside the manifest. */
const INLINE_ITEMS_MAX = 200;
const DEFAULT_NAMESPACE = 'single';

const namespaceOf = (spec: Record<string, any>): string => spec.namespace_type ?? DEFAULT_NAMESPACE;

/**
 * The list fields an update (PUT) writes; `type` is required there although it never changes (wire-facts 4.1).
 * `version` only when the manifest declares one: otherwise the server chooses it, the stored one
 * plus one on each update (update_exception_list.ts), and it is neither sent nor compared.
 */
function listFields(source: Record<string, any>, withVersion: boolean): Record<string, any> {
  const out: Record<string, any> = {
    name: source.name,
    description: source.description,
    type: source.type,
    namespace_type: namespaceOf(source),
    tags: [...new Set<string>(source.tags ?? [])].sort(),
    os_types: [...new Set<string>(source.os_types ?? [])].sort(),
  };
  if (isPlainObject(source.meta)) out.meta = source.meta;
  if (withVersion) out.version = source.version;
  return out;
}

const declaresVersion = (spec: Record<string, any>): boolean => spec.version !== undefined;

function desiredItems(res: Resource): Item[] {
  return declaredItems(res).map((d) => d.item);
}

async function listLists(ctx: AdapterContext, space: string, namespaceType: string): Promise<LiveObject[]> {
  let lists = await findLists(ctx.api, space, namespaceType);
  let items: Map<string, Item[]>;
  for (let attempt = 1; ; attempt += 1) {
    try {
      items = await itemsOfLists(ctx.api, space, lists.map((l) => l.list_id), namespaceType);
      break;
    } catch (err) {
      // The items find answers 404 for a list deleted since the lists were found (a delete of
      // this apply beside a read-back): the lists are found again, not reported as an error.
      if (!(err instanceof ApiError) || err.status !== 404 || attempt >= 3) throw err;
      lists = await findLists(ctx.api, space, namespaceType);
    }
  }
  return lists.map((body) => ({
    kind: KIND,
    space,
    name: body.list_id,
    serverId: body.id,
    body,
    // A rule's default list belongs to its rule (Rule spec.default_exceptions), never to this kind.
    readOnly: body.immutable ? 'immutable exception list' : body.type === 'rule_default' ? 'the default exception list of a rule (declare it as the rule\'s spec.default_exceptions)' : undefined,
    // The endpoint artifact lists have fixed ids, and the server makes each when it is first needed
    // (Elastic Defend's setup, an artifact's first write): deleting one deletes every artifact in it.
    ...(isServerMadeArtifactList(body) ? { serverOwned: 'the server makes this endpoint artifact list itself; a manage scope never deletes it (declare it to manage its items)' } : {}),
    tags: body.tags ?? [],
    extra: { items: items.get(body.list_id) ?? [] },
  }));
}

/** An endpoint artifact list as the server makes it: its fixed list_id, its type, agnostic. */
function isServerMadeArtifactList(body: Record<string, any>): boolean {
  const artifact = endpointListOfId(String(body.list_id));
  return !!artifact && artifact.type === body.type && body.namespace_type === 'agnostic';
}

function checkEndpointList(res: Resource): CheckIssue[] {
  const artifact = endpointListOfType(res.spec.type);
  if (!artifact) return [];
  // The generic route takes `type: endpoint` with a list_id of its own, in either namespace
  // (wire-facts §16 #7): such a list is an ordinary one. Only endpoint_list is the artifact list.
  if (artifact.type === 'endpoint' && res.name !== artifact.listId) return [];
  const out: CheckIssue[] = [];
  if (res.name !== artifact.listId) out.push({ path: ['metadata', 'name'], message: `metadata.name: the ${artifact.label} list (type ${artifact.type}) has the fixed list_id ${JSON.stringify(artifact.listId)}` });
  if (namespaceOf(res.spec) !== 'agnostic') out.push({ path: ['spec', 'namespace_type'], message: `spec.namespace_type: endpoint lists are agnostic (visible in every space): set namespace_type: agnostic` });
  let items;
  try {
    items = declaredItems(res);
  } catch {
    return out; // reported by the items_file check
  }
  for (const { item, path, inFile } of items) {
    for (const issue of artifactItemIssues(artifact.listId, item)) {
      const field = issue.path.join('.');
      if (inFile) out.push({ path, message: `${inFile} (item_id ${JSON.stringify(item.item_id)}), ${field}: ${issue.message}` });
      else out.push({ path: [...path, ...issue.path], message: `${displayField([...path, ...issue.path])}: ${issue.message}` });
    }
  }
  return out;
}

function checkItems(res: Resource): CheckIssue[] {
  if (typeof res.spec.items_file === 'string') {
    const items = readItemsFile(res, res.spec.items_file);
    if (items instanceof Error) return [{ path: ['spec', 'items_file'], message: items.message }];
  }
  const out: CheckIssue[] = [];
  const seen = new Map<string, string>();
  for (const { item, path, inFile } of declaredItems(res)) {
    const where = inFile ? `${displayField(path)}, ${inFile}` : displayField([...path, 'item_id']);
    if (typeof item.item_id !== 'string' || item.item_id === '') {
      out.push({ path, message: `${where}: every item needs an item_id (its identity in the set)` });
      continue;
    }
    const first = seen.get(item.item_id);
    if (first) out.push({ path: inFile ? path : [...path, 'item_id'], message: `${where} repeats ${first} (${JSON.stringify(item.item_id)}): item_ids must be unique` });
    else seen.set(item.item_id, where);
  }
  return out;
}

/**
 * An entry of type `list` names a value list by id (spec.items[i].entries[j].list.id). Accepted
 * when missing: the item routes check the item's own list, never the value lists its entries name
 * (K:x-pack/solutions/security/plugins/lists/server/routes/create_exception_list_item_route.ts, validate.ts).
 */
function valueListReferences(spec: Record<string, any>): Reference[] {
  const refs: Reference[] = [];
  (Array.isArray(spec.items) ? spec.items : []).forEach((item: Item, i: number) => {
    (Array.isArray(item?.entries) ? item.entries : []).forEach((e: Item, j: number) => {
      if (e?.type === 'list' && typeof e.list?.id === 'string') refs.push({ kind: 'ValueList', name: e.list.id, path: ['spec', 'items', i, 'entries', j, 'list', 'id'], whenMissing: 'accepted', missingEffect: 'the entry matches nothing until it exists' });
    });
  });
  return refs;
}

/** Whether the server holds the list with exactly these fields (a lost answer's write read back). */
async function holdsList(ctx: AdapterContext, res: Resource, fields: Record<string, any>): Promise<boolean> {
  const list = await ctx.api.request({ method: 'GET', path: LISTS_PATH, space: res.space, query: { list_id: res.name, namespace_type: fields.namespace_type }, accept: [404] });
  return list.status === 200 && deepEqual(listFields(list.body, 'version' in fields), fields);
}

async function isOwnEmptyList(ctx: AdapterContext, res: Resource, fields: Record<string, any>): Promise<boolean> {
  if (!(await holdsList(ctx, res, fields))) return false;
  const query = { list_id: res.name, namespace_type: fields.namespace_type };
  const items = await ctx.api.request({ method: 'GET', path: `${LISTS_PATH}/items/_find`, space: res.space, query: { ...query, per_page: 1 } });
  return items.body?.total === 0;
}

export const exceptionListAdapter: KindAdapter = {
  kind: KIND,
  schema: 'ExceptionList.schema.json',
  area: AREAS.exceptionLists,
  setFields: ['/tags', '/os_types'],
  keyedFields: { '/items': 'item_id' },
  referenceKinds: ['ValueList'],

  references: valueListReferences,

  check(res) {
    if (res.spec.type === 'rule_default') {
      return [{ path: ['spec', 'type'], message: "a rule's default exception list is declared with the rule (Rule spec.default_exceptions), not as an ExceptionList" }];
    }
    const items = checkItems(res);
    return items.some((i) => i.path.at(-1) === 'items_file') ? items : [...items, ...checkEndpointList(res)];
  },

  checkAmong: itemIdClashes,

  planWarnings: (_resources, changes, liveOf, _ownsUnnamed, liveIn) => itemsHeldElsewhere(changes, liveOf, liveIn),

  list(ctx, space) {
    return listLists(ctx, space, 'single');
  },

  spaceless: {
    declared: (spec) => namespaceOf(spec) === 'agnostic',
    list: (ctx, space) => listLists(ctx, space, 'agnostic'),
  },

  normalizeDesired(res) {
    return { ...listFields(res.spec, declaresVersion(res.spec)), items: comparableItems(desiredItems(res)) };
  },

  normalizeLive(live) {
    return { ...listFields(live.body, true), items: comparableItems(live.extra?.items ?? []) };
  },

  chosenByServer(res) {
    return declaresVersion(res.spec) ? [] : ['/spec/version'];
  },

  async create(ctx, res) {
    const fields = listFields(res.spec, declaresVersion(res.spec));
    const target = { listId: res.name, namespaceType: fields.namespace_type, space: res.space };
    try {
      await ctx.api.request({ method: 'POST', path: LISTS_PATH, space: res.space, idempotent: true, body: { list_id: res.name, ...fields } });
    } catch (err) {
      // A 409 after a lost answer: the list this create made is there, without its items yet. Only
      // an empty list equal to the manifest's is taken as ours; anything else stays a conflict.
      if (!(err instanceof ApiError) || err.status !== 409 || !(await isOwnEmptyList(ctx, res, fields))) throw err;
    }
    await reconcileItems(ctx.api, target, desiredItems(res), []);
  },

  async update(ctx, res, live) {
    const desired = listFields(res.spec, declaresVersion(res.spec));
    const current = listFields(live.body, declaresVersion(res.spec));
    for (const fixed of ['type', 'namespace_type']) {
      if (desired[fixed] !== current[fixed]) {
        throw new Error(`ExceptionList ${res.name}: the ${fixed} of a list cannot change (server: ${current[fixed]}, manifest: ${desired[fixed]}); delete the list first or give the manifest a new list_id`);
      }
    }
    // The update route takes os_types but never writes them (update_exception_list.ts): sent, they
    // would change nothing and the plan would show the same change forever.
    if (!deepEqual(desired.os_types, current.os_types)) {
      const shown = (v: string[]) => (v.length ? v.join(', ') : 'none');
      throw new Error(`ExceptionList ${res.name}: the os_types of a list cannot change through an update, which keeps the stored ones (server: ${shown(current.os_types)}, manifest: ${shown(desired.os_types)}); keep them, or delete the list and create it again`);
    }
    // The update is a saved-object partial update: meta is merged into the stored one, so a key can
    // be changed but never removed (update_exception_list.ts).
    if (!keysKept(current.meta, desired.meta)) {
      const kept = Object.keys(current.meta).filter((key) => !keysKept({ [key]: current.meta[key] }, desired.meta ?? {}));
      const lost = kept.length ? kept.map((k) => `meta.${shortText(k)}`).join(', ') : 'its meta';
      throw new Error(`ExceptionList ${res.name}: the server keeps every meta key an update leaves out, so meta cannot lose ${lost} through an update; keep it, or delete the list and create it again`);
    }
    if (!deepEqual(desired, current)) {
      // A full replace; `_version` makes it fail rather than overwrite a change made since the plan read the list.
      try {
        await ctx.api.request({ method: 'PUT', path: LISTS_PATH, space: res.space, body: { list_id: res.name, ...desired, _version: live.body._version } });
      } catch (err) {
        // A repeat after a lost answer meets the `_version` its own first attempt made stale: when
        // the list now holds what was written, that attempt landed. A 409 on the first attempt is
        // someone else's change and stands.
        const repeated = err instanceof ApiError && err.status === 409 && err.attempts > 1;
        if (!repeated || !(await holdsList(ctx, res, desired))) throw err;
      }
    }
    await reconcileItems(ctx.api, { listId: res.name, namespaceType: desired.namespace_type, space: res.space }, desiredItems(res), live.extra?.items ?? []);
  },

  async delete(ctx, live) {
    // Deleting a list deletes its items (wire-facts 4.1).
    await ctx.api.request({ method: 'DELETE', path: LISTS_PATH, space: live.space, query: { list_id: live.name, namespace_type: namespaceOf(live.body) } });
  },

  toSpec(live) {
    const b = live.body;
    const spec: Record<string, any> = { type: b.type };
    if (namespaceOf(b) !== DEFAULT_NAMESPACE) spec.namespace_type = namespaceOf(b);
    spec.name = b.name;
    spec.description = b.description;
    if (b.tags?.length) spec.tags = b.tags;
    if (b.os_types?.length) spec.os_types = b.os_types;
    if (isPlainObject(b.meta)) spec.meta = b.meta;
    const items = (live.extra?.items ?? []).map(itemSpec);
    if (items.length <= INLINE_ITEMS_MAX) {
      spec.items = items;
      return { spec };
    }
    const file = `${live.name.replace(/[^A-Za-z0-9._-]/g, '_')}.items.yaml`;
    spec.items_file = file;
    return { spec, files: { [file]: yaml().stringify(items) } };
  },
};
