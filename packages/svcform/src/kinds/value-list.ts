import { dirname, isAbsolute, join } from 'node:path';
import type { Requester } from '../client/types.js';
import { MAX_ITEMS_FILE_BYTES, readConfinedFile } from '../manifest/confined-file.js';
import { shortText } from '../manifest/short-text.js';
import type { CheckIssue, Resource, SourcePos } from '../manifest/types.js';
import { INEXACT_VALUE_TYPES, listValueProblem, storedListValue } from '../common/list-values.js';
import { deepEqual, isPlainObject } from './normalize.js';
import type { KindAdapter, LiveObject } from './types.js';
import { AREAS } from '../client/areas.js';
import { stringSetDifference } from '../common/string-set-difference.js';

const KIND = 'ValueList';
const BASE = '/api/lists';
/**
 * Both find endpoints page up to the search window in one go; the cursor carries a caller past
 * it, so this is also the page size for 100,000-item lists (ten requests).
 */
export const LIST_PAGE_SIZE = 10_000;
/** Above this many values, export writes them to a file beside the manifest. */
export const INLINE_ITEMS_MAX = 1000;
/** Server default of a list's `version` (service-api.md Value lists). */
const DEFAULT_VERSION = 1;

/** The lines of a values file as the import endpoint reads them: blank lines are not values. */
export function parseValues(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() !== '') out.push(line);
  }
  return out;
}

/**
 * Values compare as a set (`setFields`): the diff compares them by membership, so order and
 * repetition do not matter and a million values are neither sorted nor deduplicated here. When
 * both sides hold the same values in the same order the comparison is one pass over the two
 * arrays; otherwise (the server answers them by tie_breaker_id, random on the real server) they
 * are compared in hash buckets (src/common/string-set-difference.ts).
 */
function valueSet(values: unknown[]): string[] {
  return values.every((v) => typeof v === 'string') ? (values as string[]) : values.map(String);
}

// A manifest's items_file is read once per loaded resource, however often it is normalized.
const fileValuesCache = new WeakMap<Resource, string[] | Error>();

/**
 * The values of a manifest's items_file, read once however often the resource is checked or
 * compared: a regular file inside the repository root, at most MAX_ITEMS_FILE_BYTES (confined-file.ts).
 */
export function readFileValues(res: Resource): string[] | Error {
  let values = fileValuesCache.get(res);
  if (!values) {
    const read = readConfinedFile(res.spec.items_file, { root: res.root, base: res.dir, maxBytes: MAX_ITEMS_FILE_BYTES });
    values = read.text !== undefined ? valueSet(parseValues(read.text)) : new Error(`items_file cannot be read: ${shortText(res.spec.items_file)}${isAbsolute(res.spec.items_file) ? "" : " (relative to this manifest)"}: ${read.error}`);
    fileValuesCache.set(res, values);
  }
  return values;
}

function fileValues(res: Resource): string[] {
  const values = readFileValues(res);
  if (values instanceof Error) throw values;
  return values;
}

function declaredValues(res: Resource): string[] {
  if (Array.isArray(res.spec.items)) return valueSet(res.spec.items);
  if (typeof res.spec.items_file !== 'string') return [];
  return fileValues(res);
}

/**
 * The manifest's values as the server will read them back (storedListValue: trimmed, a single
 * value of a range type as the range from it to itself, ...): what the plan compares with the
 * live values and what apply imports, which the server stores unchanged.
 */
export function desiredValues(res: Resource): string[] {
  let out = storedValuesCache.get(res);
  if (out) return out;
  const type = String(res.spec.type);
  out = [];
  for (const value of declaredValues(res)) {
    const stored = storedListValue(type, value);
    if (stored !== undefined) out.push(stored);
  }
  storedValuesCache.set(res, out);
  return out;
}

// Worked out once per loaded resource, as its items_file is read once: plan and apply ask for them several times.
const storedValuesCache = new WeakMap<Resource, string[]>();

/** The list fields an update by PUT sets (everything but the values and the fixed type). */
function listFields(source: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = { name: source.name, description: source.description };
  if (isPlainObject(source.meta)) out.meta = source.meta;
  out.version = typeof source.version === 'number' ? source.version : DEFAULT_VERSION;
  return out;
}

function comparable(source: Record<string, any>, values: string[]): Record<string, any> {
  const { name, description, meta, version } = listFields(source);
  const out: Record<string, any> = { name, description, type: source.type };
  if (meta !== undefined) out.meta = meta;
  out.version = version;
  out.items = values;
  return out;
}

/**
 * Every row of a `_find` endpoint of the lists API: large pages, each after the previous one's
 * cursor (search_after), so no page is ever beyond the search window. ceil(total / pageSize)
 * requests, at least one.
 */
async function findAll(api: Requester, space: string, path: string, query: Record<string, string>, accept: number[] = []): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const res = await api.request({ method: 'GET', path, space, accept, query: { ...query, page, per_page: LIST_PAGE_SIZE, cursor } });
    if (res.status !== 200) return rows;
    const data: any[] = res.body?.data ?? [];
    for (const row of data) rows.push(row);
    if (data.length < LIST_PAGE_SIZE || rows.length >= (res.body?.total ?? 0)) return rows;
    cursor = res.body.cursor;
  }
}

/**
 * The import route takes at most 9,000,000 bytes (the lists plugin's maxImportPayloadBytes,
 * wire-facts 3.1): values go in as many files below that as they need, written at once.
 */
const IMPORT_FILE_BYTES = 8_000_000;

async function importValues(api: Requester, id: string, space: string, values: string[]): Promise<void> {
  const files: string[] = [];
  let lines: string[] = [];
  let bytes = 0;
  for (const v of values) {
    const size = Buffer.byteLength(v) + 1;
    if (lines.length > 0 && bytes + size > IMPORT_FILE_BYTES) {
      files.push(lines.join('\n') + '\n');
      lines = [];
      bytes = 0;
    }
    lines.push(v);
    bytes += size;
  }
  if (lines.length) files.push(lines.join('\n') + '\n');
  await Promise.all(
    files.map((content) =>
      api.request({ method: 'POST', path: `${BASE}/items/_import`, space, query: { list_id: id }, multipart: { field: 'file', filename: 'items.txt', content, contentType: 'text/plain' } }),
    ),
  );
}

/**
 * A list's values: the first page of `_find` (10,000 values), and beyond it the items export
 * (wire-facts 3.1), which answers every value, one a line, in one request where `_find` needs one
 * per 10,000 in sequence (each after the previous one's cursor). It is a POST that only reads;
 * small lists never need it. Should the export not agree with the count (a value holding a line
 * break), the items are read page by page instead.
 */
/**
 * A list's values; `undefined` when the list is gone since it was found (another writer deleted
 * it). With `ids` (lists of INEXACT_VALUE_TYPES, whose values a delete names by id) every item is
 * read through `_find` and the ids of each value are put in `ids`.
 */
async function listValues(api: Requester, space: string, listId: string, ids?: Map<string, string[]>): Promise<string[] | undefined> {
  const first = await api.request({ method: 'GET', path: `${BASE}/items/_find`, space, query: { list_id: listId, page: 1, per_page: LIST_PAGE_SIZE }, accept: [404] });
  if (first.status === 404) return undefined;
  let rows: any[] = first.body?.data ?? [];
  const total = first.body?.total;
  if (ids) {
    if (typeof total === 'number' && rows.length < total) rows = await findAll(api, space, `${BASE}/items/_find`, { list_id: listId });
    for (const row of rows) {
      const same = ids.get(row.value);
      if (same) same.push(row.id);
      else ids.set(row.value, [row.id]);
    }
    return rows.map((item) => item.value);
  }
  if (typeof total !== 'number' || rows.length >= total) return rows.map((item) => item.value);
  const exported = await api.request({ method: 'POST', path: `${BASE}/items/_export`, space, query: { list_id: listId }, idempotent: true });
  const values = exported.text === '' ? [] : exported.text.split('\n');
  if (values.length > 0 && values[values.length - 1] === '') values.pop();
  if (values.length === total) return values;
  return (await findAll(api, space, `${BASE}/items/_find`, { list_id: listId })).map((item) => item.value);
}

/** Values refused for one list are named up to this many; the rest are counted. */
const TYPE_ISSUES_SHOWN = 100;

/**
 * Values the server refuses in a list of the manifest's type (src/common/list-values.ts), each at
 * its place: an inline item, or the line of the items_file (read again only when a value is bad,
 * so a valid million-value file is read once). Refused at validate, not at apply after a merge.
 */
function typeIssues(res: Resource, values: readonly unknown[]): CheckIssue[] {
  const type = String(res.spec.type);
  const bad: Array<{ index: number; problem: string }> = [];
  let count = 0;
  values.forEach((value, index) => {
    const problem = typeof value === 'string' ? listValueProblem(type, value) : undefined;
    if (problem === undefined) return;
    count += 1;
    if (bad.length < TYPE_ISSUES_SHOWN) bad.push({ index, problem });
  });
  if (count === 0) return [];
  const lines = Array.isArray(res.spec.items) ? undefined : valueLines(res);
  const group = `${KIND} ${res.name}: values not of type ${type}`;
  const issues: CheckIssue[] = bad.map(({ index, problem }) => {
    const where = lines ? { path: ['spec', 'items_file'], pos: lines[index] } : { path: ['spec', 'items', index] };
    return { ...where, group, message: `${JSON.stringify(shortText(String(values[index])))} is ${problem}: the server refuses it in a list of type ${type}` };
  });
  if (count > bad.length) issues.push({ path: lines ? ['spec', 'items_file'] : ['spec', 'items'], message: `${count - bad.length} more values are not of type ${type} (the first ${bad.length} are named)` });
  return issues;
}

/** The place of each value of the items_file, in the order parseValues reads them (blank lines skipped). */
function valueLines(res: Resource): Array<SourcePos | undefined> {
  const read = readConfinedFile(res.spec.items_file, { root: res.root, base: res.dir, maxBytes: MAX_ITEMS_FILE_BYTES });
  const file = isAbsolute(res.spec.items_file) ? res.spec.items_file : join(dirname(res.source.file), res.spec.items_file);
  const places: Array<SourcePos | undefined> = [];
  (read.text ?? '').split('\n').forEach((line, i) => {
    if (line.trim() !== '') places.push({ file, line: i + 1, col: 1 });
  });
  return places;
}

/**
 * The create route takes a list's `serializer` and `deserializer` (OAS CreateList), but the current
 * lists plugin neither stores them nor applies them: items are written and read with the default
 * serializers (services/lists/create_list.ts, items/create_list_items_bulk.ts). They are sent as
 * declared, never compared (no read answers them), and warned about: older servers apply them to
 * the values, which the plan does not model.
 */
const CREATE_ONLY_FORMATS = ['serializer', 'deserializer'] as const;

function ignoredFormatIssues(res: Resource): CheckIssue[] {
  return CREATE_ONLY_FORMATS.filter((key) => res.spec[key] !== undefined).map((key) => ({
    path: ['spec', key],
    severity: 'warning' as const,
    message: `spec.${key} is taken by the create route and ignored by current servers, which ${key === 'serializer' ? 'parse' : 'render'} values with the default ${key}s (older ones apply it, and the plan would then differ from the values they hold): remove it`,
  }));
}

/** A file name for exported values that is safe whatever characters the list id holds. */
function valuesFileName(id: string): string {
  return `${id.replace(/[^A-Za-z0-9._-]/g, '_')}.txt`;
}

/**
 * Value lists and their values. metadata.name is the list `id`; the spec's `items` (or the
 * `items_file` beside the manifest) is the complete set of values. Values are written in bulk:
 * import files of up to 8 MB for any number of additions, and a delete only per removed value.
 */
export const valueListAdapter: KindAdapter = {
  kind: KIND,
  schema: 'ValueList.schema.json',
  area: AREAS.lists,
  setFields: ['/items'],

  references() {
    return [];
  },

  check(res) {
    const ignored = ignoredFormatIssues(res);
    if (Array.isArray(res.spec.items)) return [...ignored, ...typeIssues(res, res.spec.items)];
    if (typeof res.spec.items_file !== 'string') return ignored;
    const values = readFileValues(res);
    return [...ignored, ...(values instanceof Error ? [{ path: ['spec', 'items_file'], message: values.message }] : typeIssues(res, values))];
  },

  async list(ctx, space) {
    // Before the list data streams exist the server may answer the find with 404: no lists yet.
    const lists = await findAll(ctx.api, space, `${BASE}/_find`, {}, [404]);
    const read = await Promise.all(
      lists.map(async (list): Promise<LiveObject | undefined> => {
        // A list deleted between the find and the read of its values (a delete of this apply
        // running beside a read-back) is gone: it is left out, not an error.
        const ids = INEXACT_VALUE_TYPES.has(list.type) ? new Map<string, string[]>() : undefined;
        const values = await listValues(ctx.api, space, list.id, ids);
        if (values === undefined) return undefined;
        return {
          kind: KIND,
          space,
          name: list.id,
          body: list,
          readOnly: list.immutable ? 'immutable list' : undefined,
          extra: { items: valueSet(values), ...(ids ? { ids } : {}) },
        };
      }),
    );
    return read.filter((o): o is LiveObject => o !== undefined);
  },

  normalizeDesired(res) {
    return comparable(res.spec, desiredValues(res));
  },

  normalizeLive(live) {
    return comparable(live.body, live.extra?.items ?? []);
  },

  async create(ctx, res) {
    const body: Record<string, any> = { id: res.name, name: res.spec.name, description: res.spec.description, type: res.spec.type };
    for (const key of CREATE_ONLY_FORMATS) if (res.spec[key] !== undefined) body[key] = res.spec[key];
    if (res.spec.meta !== undefined) body.meta = res.spec.meta;
    if (res.spec.version !== undefined) body.version = res.spec.version;
    await ctx.api.request({ method: 'POST', path: BASE, space: res.space, idempotent: true, body });
    const values = desiredValues(res);
    if (values.length > 0) await importValues(ctx.api, res.name, res.space, values);
  },

  async update(ctx, res, live) {
    if (live.body.type !== res.spec.type) {
      throw new Error(
        `ValueList ${res.name}: the type of a list cannot change (server: ${live.body.type}, manifest: ${res.spec.type}); ` +
          'delete the list first or give the manifest a new name',
      );
    }
    const desired = listFields(res.spec);
    const current = listFields(live.body);
    if (!deepEqual(desired, current)) {
      // A full replace (absent meta is removed); `_version` makes it fail rather than overwrite a
      // change made since the plan read the list. `version` is sent so that it stays as declared.
      await ctx.api.request({
        method: 'PUT',
        path: BASE,
        space: live.space,
        body: { id: res.name, ...desired, _version: live.body._version },
      });
    }
    // The comparison the plan made (two Sets of a million values took about 2 s here).
    const { added: missing, removed: extra } = stringSetDifference(live.extra?.items ?? [], desiredValues(res));
    if (missing.length > 0) await importValues(ctx.api, res.name, live.space, missing);
    // One delete per removed value (the API deletes items one at a time, by id or by value); the
    // client bounds how many are in flight. A value already gone (404) is what was wanted. Where a
    // delete by value is not an equality (text deletes every item with its words; a range type
    // queries again with the ranges found, which fails), each item is deleted by its id.
    const ids: Map<string, string[]> | undefined = live.extra?.ids;
    const deletes: Array<Record<string, string>> = ids ? extra.flatMap((value) => (ids.get(value) ?? []).map((id) => ({ id }))) : extra.map((value) => ({ list_id: res.name, value }));
    await Promise.all(deletes.map((query) => ctx.api.request({ method: 'DELETE', path: `${BASE}/items`, space: live.space, query, accept: [404] })));
  },

  async delete(ctx, live) {
    await ctx.api.request({ method: 'DELETE', path: BASE, space: live.space, query: { id: live.name } });
  },

  toSpec(live) {
    const spec: Record<string, any> = { name: live.body.name, description: live.body.description, type: live.body.type };
    if (isPlainObject(live.body.meta)) spec.meta = live.body.meta;
    if (typeof live.body.version === 'number' && live.body.version !== DEFAULT_VERSION) spec.version = live.body.version;
    // Exported values in one fixed order, so that an export is stable.
    const values: string[] = [...new Set<string>(live.extra?.items ?? [])].sort();
    if (values.length <= INLINE_ITEMS_MAX) {
      spec.items = values;
      return { spec };
    }
    const file = valuesFileName(live.name);
    spec.items_file = file;
    return { spec, files: { [file]: values.join('\n') + '\n' } };
  },

  prerequisite: {
    description: 'list data streams',
    async check(ctx, space) {
      const res = await ctx.api.request({ method: 'GET', path: `${BASE}/index`, space, accept: [404] });
      return res.status === 200;
    },
    async ensure(ctx, space) {
      // Idempotent per service-api.md; some servers answer 409 when the streams already exist.
      await ctx.api.request({ method: 'POST', path: `${BASE}/index`, space, idempotent: true, accept: [409] });
    },
  },
};
