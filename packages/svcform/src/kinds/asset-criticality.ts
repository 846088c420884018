import { dirname, isAbsolute, join } from 'node:path';
import type { Requester } from '../client/types.js';
import { ResponseError } from '../client/errors.js';
import { MAX_ITEMS_FILE_BYTES, readConfinedFile } from '../manifest/confined-file.js';
import { shortText } from '../manifest/short-text.js';
import type { CheckIssue, Resource, SourcePos } from '../manifest/types.js';
import { CRITICALITY_LEVELS, ID_FIELDS, MAX_BULK_RECORDS, MAX_LIST_PER_PAGE, UNASSIGNED } from '../common/asset-criticality.js';
import type { KindAdapter, LiveObject } from './types.js';
import { AREAS } from '../client/areas.js';

const KIND = 'AssetCriticality';
const BASE = '/api/asset_criticality';
/** The search backend's result window (wire-facts 0.4): page x per_page never beyond it. */
const SEARCH_WINDOW = 10_000;
const PAGES_PER_WINDOW = SEARCH_WINDOW / MAX_LIST_PER_PAGE;
/** Above this many records, export writes them to a file beside the manifest. */
export const INLINE_RECORDS_MAX = 1000;
/**
 * A bulk body stays under this many bytes besides the 1,000-record limit: the server's default
 * payload limit is 1 MiB (server.maxPayload), and long id values would reach it first.
 */
const BULK_BODY_BYTES = 512 * 1024;

const LEVELS = new Set<string>(CRITICALITY_LEVELS);
const MANIFEST_LEVELS = new Set<string>([...CRITICALITY_LEVELS, UNASSIGNED]);

type Records = Record<string, string>;

/** A key set on a plain object even when it is `__proto__` (an id value is any string). */
function setOwn(out: Records, key: string, value: string): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

interface FileRecord {
  value: string;
  level: string;
  line: number;
}

/**
 * The lines of a records file: `<id_value>,<criticality_level>`, split at the last comma (a level
 * holds none, an id value may). Blank lines are skipped; a line without a comma is a problem.
 */
export function parseRecordLines(text: string): { records: FileRecord[]; problems: Array<{ line: number; message: string }> } {
  const records: FileRecord[] = [];
  const problems: Array<{ line: number; message: string }> = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    const comma = line.lastIndexOf(',');
    if (comma < 0) {
      problems.push({ line: i + 1, message: `${JSON.stringify(shortText(line))} is not "<id_value>,<criticality_level>"` });
      continue;
    }
    records.push({ value: line.slice(0, comma), level: line.slice(comma + 1).trim(), line: i + 1 });
  }
  return { records, problems };
}

interface Desired {
  records: Records;
  issues: CheckIssue[];
}

// A manifest's records are read and checked once per loaded resource, however often it is compared.
const desiredCache = new WeakMap<Resource, Desired>();

function filePath(res: Resource): string {
  return isAbsolute(res.spec.records_file) ? res.spec.records_file : join(dirname(res.source.file), res.spec.records_file);
}

/** Problems named up to this many per manifest; the rest are counted. */
const ISSUES_SHOWN = 100;

function desiredOf(res: Resource): Desired {
  let d = desiredCache.get(res);
  if (d) return d;
  const records: Records = {};
  const issues: CheckIssue[] = [];
  let hidden = 0;
  const issue = (i: CheckIssue) => (issues.length < ISSUES_SHOWN ? issues.push(i) : hidden++);
  // Values given as unassigned, kept apart from the records; only a file can give a value twice.
  const unassigned = new Set<string>();
  let fileRecords: FileRecord[] = [];
  const add = (value: string, level: string, place: () => Pick<CheckIssue, 'path' | 'pos'>) => {
    const before = Object.prototype.hasOwnProperty.call(records, value) ? records[value] : unassigned.has(value) ? UNASSIGNED : undefined;
    if (before !== undefined && before !== level) {
      // Looked up only for the message: a conflict is rare, a Map of every value's line is not free.
      const first = fileRecords.find((r) => r.value === value)?.line;
      issue({ ...place(), message: `${JSON.stringify(shortText(value))} is given as ${level} here and as ${before} at line ${first}: a record has one level` });
      return;
    }
    if (level === UNASSIGNED) unassigned.add(value);
    else setOwn(records, value, level);
  };
  if (typeof res.spec.records_file === 'string') {
    const read = readConfinedFile(res.spec.records_file, { root: res.root, base: res.dir, maxBytes: MAX_ITEMS_FILE_BYTES });
    if (read.text === undefined) {
      issue({ path: ['spec', 'records_file'], message: `records_file cannot be read: ${shortText(res.spec.records_file)}${isAbsolute(res.spec.records_file) ? '' : ' (relative to this manifest)'}: ${read.error}` });
    } else {
      const file = filePath(res);
      const at = (line: number): Pick<CheckIssue, 'path' | 'pos'> => ({ path: ['spec', 'records_file'], pos: { file, line, col: 1 } as SourcePos });
      const parsed = parseRecordLines(read.text);
      fileRecords = parsed.records;
      for (const p of parsed.problems) issue({ ...at(p.line), message: p.message });
      for (const r of parsed.records) {
        if (!MANIFEST_LEVELS.has(r.level)) {
          issue({ ...at(r.line), message: `${JSON.stringify(shortText(r.level))} is not a criticality level (${[...MANIFEST_LEVELS].join(', ')})` });
          continue;
        }
        add(r.value, r.level, () => at(r.line));
      }
    }
  } else if (res.spec.records && typeof res.spec.records === 'object') {
    for (const value of Object.keys(res.spec.records)) {
      const level = res.spec.records[value];
      if (typeof level === 'string') add(value, level, () => ({ path: ['spec', 'records', value] }));
    }
  }
  if (issues.length === 0 && Object.keys(records).length === 0) issue({ path: ['spec'], message: 'no records are assigned: delete the manifest to remove every record of this id_field' });
  if (hidden > 0) issues.push({ path: ['spec'], message: `${hidden} more problems (the first ${ISSUES_SHOWN} are named)` });
  d = { records, issues };
  desiredCache.set(res, d);
  return d;
}

/** A string as a KQL quoted value: backslashes and quotes escaped, nothing else (kuery grammar QuotedCharacter). */
export function kqlQuoted(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

type ApiRecord = { id_field: string; id_value: string; criticality_level: string };

async function listPage(api: Requester, space: string, page: number, kuery?: string): Promise<{ records: ApiRecord[]; total: number }> {
  const res = await api.request({
    method: 'GET',
    path: `${BASE}/list`,
    space,
    query: { sort_field: 'id_value', sort_direction: 'asc', page, per_page: MAX_LIST_PER_PAGE, ...(kuery ? { kuery } : {}) },
  });
  const records = res.body?.records;
  const total = res.body?.total;
  if (!Array.isArray(records) || !Number.isSafeInteger(total)) throw new ResponseError(`GET ${BASE}/list: page ${page} of the answer holds no records and total`);
  return { records, total };
}

/** Pages 1..n of one query (n within the search window), the first already read. */
async function window(api: Requester, space: string, first: { records: ApiRecord[]; total: number }, kuery?: string): Promise<ApiRecord[]> {
  const pages = Math.min(PAGES_PER_WINDOW, Math.ceil(first.total / MAX_LIST_PER_PAGE));
  const rest = await Promise.all(Array.from({ length: Math.max(0, pages - 1) }, (_, i) => listPage(api, space, i + 2, kuery)));
  return [first, ...rest].flatMap((p) => p.records);
}

/**
 * The records of one id_field, past the search window: windows of 10,000 in id_value order, each
 * after the last value of the one before (`id_value > "last"`, a keyword range). Each window's
 * last page is asked for first, so the next window starts as soon as it answers while the other
 * pages are still on their way: the wait is one round trip per window. A window whose last page
 * comes back short is the last one, so a total the server caps at 10,000 (a search that does not
 * track every hit) reads the same.
 */
async function listField(api: Requester, space: string, idField: string): Promise<ApiRecord[]> {
  const byField = `id_field: ${kqlQuoted(idField)}`;
  const first = await listPage(api, space, 1, byField);
  if (first.total < SEARCH_WINDOW) return window(api, space, first, byField);
  const windows: Array<Promise<ApiRecord[]>> = [];
  let kuery = byField;
  let known: Promise<{ records: ApiRecord[]; total: number }> | undefined = Promise.resolve(first);
  for (;;) {
    const last = listPage(api, space, PAGES_PER_WINDOW, kuery);
    const pages = [known ?? listPage(api, space, 1, kuery)];
    for (let page = 2; page < PAGES_PER_WINDOW; page++) pages.push(listPage(api, space, page, kuery));
    pages.push(last);
    known = undefined;
    windows.push(Promise.all(pages).then((read) => read.flatMap((p) => p.records)));
    const end = await last;
    if (end.records.length < MAX_LIST_PER_PAGE) break;
    kuery = `${byField} and id_value > ${kqlQuoted(end.records[end.records.length - 1].id_value)}`;
  }
  return (await Promise.all(windows)).flat();
}

/**
 * Every record of a space, by id_field: one query of all records when they fit the search window
 * (one request up to 1,000 records), else one keyset walk per id_field.
 */
async function listRecords(api: Requester, space: string): Promise<Map<string, Records>> {
  const first = await listPage(api, space, 1);
  const rows: ApiRecord[] = first.total < SEARCH_WINDOW ? await window(api, space, first) : (await Promise.all(ID_FIELDS.map((f) => listField(api, space, f)))).flat();
  const byField = new Map<string, Records>();
  for (const r of rows) {
    // A record of another level (a server that marks removed records instead of deleting them) is no assignment.
    if (!LEVELS.has(r.criticality_level)) continue;
    let records = byField.get(r.id_field);
    if (!records) byField.set(r.id_field, (records = {}));
    setOwn(records, r.id_value, r.criticality_level);
  }
  return byField;
}

/** Bulk bodies of at most 1,000 records and BULK_BODY_BYTES each, written at once (the client bounds how many are in flight). */
async function bulkWrite(api: Requester, space: string, idField: string, records: Array<[string, string]>): Promise<void> {
  const bodies: ApiRecord[][] = [];
  let batch: ApiRecord[] = [];
  let bytes = 0;
  for (const [value, level] of records) {
    const size = Buffer.byteLength(value) + idField.length + level.length + 64;
    if (batch.length > 0 && (batch.length >= MAX_BULK_RECORDS || bytes + size > BULK_BODY_BYTES)) {
      bodies.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push({ id_field: idField, id_value: value, criticality_level: level });
    bytes += size;
  }
  if (batch.length) bodies.push(batch);
  const answers = await Promise.all(bodies.map((body) => api.request({ method: 'POST', path: `${BASE}/bulk`, space, idempotent: true, body: { records: body } })));
  const failed: string[] = [];
  answers.forEach((res, b) => {
    for (const e of res.body?.errors ?? []) {
      const rec = bodies[b][e.index];
      failed.push(`${rec ? JSON.stringify(shortText(rec.id_value)) : `record ${e.index}`}: ${shortText(String(e.message))}`);
    }
  });
  if (failed.length) throw new Error(`${failed.length} records were refused: ${failed.slice(0, 5).join('; ')}${failed.length > 5 ? '; ...' : ''}`);
}

/** The writes that turn `live` into `desired`: changed and new records, and `unassigned` for the rest. */
function changesOf(live: Records, desired: Records): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const value of Object.keys(desired)) if (live[value] !== desired[value] || !Object.prototype.hasOwnProperty.call(live, value)) out.push([value, desired[value]]);
  for (const value of Object.keys(live)) if (!Object.prototype.hasOwnProperty.call(desired, value)) out.push([value, UNASSIGNED]);
  return out;
}

/** A file name for exported records, from the id_field. */
const recordsFileName = (idField: string) => `${idField.replace(/[^A-Za-z0-9._-]/g, '_')}.csv`;

/**
 * Asset criticality records of one id_field in a space, as a set (metadata.name is the id_field).
 * `spec.records` (id value -> level) or `spec.records_file` (`<id_value>,<level>` lines) is the
 * complete set: records of that id_field on the server and not here are removed. Written through
 * the bulk route (1,000 records a call), removals as `unassigned`; read through the list route.
 * The routes are deprecated since 9.4 but functional (service-api.md Versioning 3).
 */
export const assetCriticalityAdapter: KindAdapter = {
  kind: KIND,
  schema: 'AssetCriticality.schema.json',
  area: AREAS.entityAnalytics,

  references() {
    return [];
  },

  check(res) {
    return desiredOf(res).issues;
  },

  async list(ctx, space) {
    const byField = await listRecords(ctx.api, space);
    return [...byField].map(([idField, records]): LiveObject => ({ kind: KIND, space, name: idField, body: { id_field: idField }, extra: { records } }));
  },

  normalizeDesired(res) {
    return { records: desiredOf(res).records };
  },

  normalizeLive(live) {
    return { records: live.extra?.records ?? {} };
  },

  async create(ctx, res) {
    const desired = desiredOf(res);
    if (desired.issues.length) throw new Error(desired.issues[0].message);
    await bulkWrite(ctx.api, res.space, res.name, Object.entries(desired.records));
  },

  async update(ctx, res, live) {
    // res.spec carries the ignored records as the server holds them (engine/ignore.ts).
    const desired = desiredOf(res);
    if (desired.issues.length) throw new Error(desired.issues[0].message);
    await bulkWrite(ctx.api, live.space, res.name, changesOf(live.extra?.records ?? {}, desired.records));
  },

  async delete(ctx, live) {
    await bulkWrite(ctx.api, live.space, live.name, Object.keys(live.extra?.records ?? {}).map((value) => [value, UNASSIGNED]));
  },

  toSpec(live) {
    const records: Records = live.extra?.records ?? {};
    // Exported in one fixed order, so that an export is stable.
    const values = Object.keys(records).sort();
    // A value holding a line break cannot be a line of the file: such a set is exported inline.
    if (values.length <= INLINE_RECORDS_MAX || values.some((v) => v.includes('\n'))) {
      const inline: Records = {};
      for (const v of values) setOwn(inline, v, records[v]);
      return { spec: { records: inline } };
    }
    const file = recordsFileName(live.name);
    return { spec: { records_file: file }, files: { [file]: values.map((v) => `${v},${records[v]}`).join('\n') + '\n' } };
  },
};
