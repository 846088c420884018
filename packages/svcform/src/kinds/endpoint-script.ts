import { createHash } from 'node:crypto';
import { basename, isAbsolute } from 'node:path';
import type { Resource } from '../manifest/types.js';
import { MAX_ITEMS_FILE_BYTES, readConfinedBytes } from '../manifest/confined-file.js';
import { shortText } from '../manifest/short-text.js';
import { listAllPages } from './paging.js';
import type { AdapterContext, CheckIssue, KindAdapter, LiveObject } from './types.js';
import { AREAS } from '../client/areas.js';

const KIND = 'EndpointScript';
const BASE = '/api/endpoint/scripts_library';
/** ListScriptsRequestSchema: pageSize 1 to 1000. */
const PAGE_SIZE = 1000;

/**
 * Scripts of the endpoint scripts library (9.4): metadata.name is the script's name (the server id
 * is generated), the script itself a file of the repository (spec.file, relative to the manifest).
 * The server keeps the file's SHA-256 and reports it in every reply (`fileHash`, with `fileName`
 * and `fileSize`), so the plan compares the local file's hash with the listing's and never
 * downloads anything: a changed file shows as `file: NAME: N bytes, sha256 H` on both sides.
 *
 * Writes are multipart (create POST, update PATCH of the changed fields; the file part only when
 * its bytes or name changed). A PATCH cannot clear an optional text field (each is minLength 1,
 * and an absent one is left as it is), so a manifest that drops one replaces the script: delete,
 * then create (nothing names a script by its id).
 */

interface LocalFile {
  bytes: Buffer;
  sha256: string;
  filename: string;
}

// The file is read once per loaded resource, however often it is checked, compared or written.
const localFiles = new WeakMap<Resource, LocalFile | Error>();

function readLocal(res: Resource): LocalFile | Error {
  let found = localFiles.get(res);
  if (!found) {
    const path = String(res.spec.file);
    const read = readConfinedBytes(path, { root: res.root, base: res.dir, maxBytes: MAX_ITEMS_FILE_BYTES });
    found = read.bytes
      ? { bytes: read.bytes, sha256: createHash('sha256').update(read.bytes).digest('hex'), filename: typeof res.spec.filename === 'string' ? res.spec.filename : basename(path) }
      : new Error(`file cannot be read: ${shortText(path)}${isAbsolute(path) ? '' : ' (relative to this manifest)'}: ${read.error}`);
    localFiles.set(res, found);
  }
  return found;
}

function localFile(res: Resource): LocalFile {
  const found = readLocal(res);
  if (found instanceof Error) throw found;
  return found;
}

/** What the plan shows of a file: its name, size and hash, never its content. */
const fileWords = (name: unknown, size: unknown, sha256: unknown) => `${String(name)}: ${String(size)} bytes, sha256 ${String(sha256)}`;

/** Optional text fields: manifest key -> wire key. */
const TEXT_FIELDS: Array<[string, string]> = [
  ['description', 'description'],
  ['instructions', 'instructions'],
  ['example', 'example'],
  ['path_to_executable', 'pathToExecutable'],
];

function comparable(source: Record<string, any>, file: string): Record<string, any> {
  const out: Record<string, any> = {
    platform: source.platform ?? [],
    file_type: source.file_type,
    tags: source.tags ?? [],
    requires_input: source.requires_input ?? false,
    file,
  };
  for (const [key] of TEXT_FIELDS) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

/** The live script in the manifest's spelling. */
function specOf(body: Record<string, any>): Record<string, any> {
  const spec: Record<string, any> = { platform: body.platform, file_type: body.fileType, tags: body.tags ?? [], requires_input: body.requiresInput ?? false };
  for (const [key, wire] of TEXT_FIELDS) if (typeof body[wire] === 'string') spec[key] = body[wire];
  return spec;
}

/** The form fields of a create, or of an update's changed fields, in the wire's spelling (arrays and booleans as JSON text, as the server's UI sends them). */
function formFields(spec: Record<string, any>, name?: string): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  if (name !== undefined) fields.push(['name', name]);
  if (spec.platform !== undefined) fields.push(['platform', JSON.stringify(spec.platform)]);
  if (spec.file_type !== undefined) fields.push(['fileType', spec.file_type]);
  if (Array.isArray(spec.tags) && spec.tags.length > 0) fields.push(['tags', JSON.stringify(spec.tags)]);
  if (spec.requires_input !== undefined) fields.push(['requiresInput', JSON.stringify(spec.requires_input)]);
  for (const [key, wire] of TEXT_FIELDS) if (typeof spec[key] === 'string') fields.push([wire, spec[key]]);
  return fields;
}

function filePart(file: LocalFile) {
  return { field: 'file', filename: file.filename, content: file.bytes, contentType: 'application/octet-stream' };
}

async function createScript(ctx: AdapterContext, res: Resource): Promise<void> {
  const file = localFile(res);
  await ctx.api.request({ method: 'POST', path: BASE, space: res.space, form: { fields: formFields(res.spec, res.name), file: filePart(file) } });
}

async function deleteScript(ctx: AdapterContext, live: LiveObject): Promise<void> {
  await ctx.api.request({ method: 'DELETE', path: `${BASE}/${encodeURIComponent(live.serverId ?? '')}`, space: live.space });
}

export const endpointScriptAdapter: KindAdapter = {
  kind: KIND,
  schema: 'EndpointScript.schema.json',
  area: AREAS.endpoint,
  setFields: ['/platform', '/tags'],
  reviewFields: ['/platform/*', '/file_type', '/tags/*', '/description', '/file'],

  references() {
    return [];
  },

  check(res: Resource): CheckIssue[] {
    const found = readLocal(res);
    return found instanceof Error ? [{ path: ['spec', 'file'], message: found.message }] : [];
  },

  async list(ctx, space) {
    const scripts = await listAllPages<Record<string, any>>(ctx.api, {
      path: BASE,
      space,
      query: { sortField: 'name', sortDirection: 'asc' },
      sizeParam: 'pageSize',
      pageSize: PAGE_SIZE,
      items: (body) => body?.data ?? [],
      total: (body) => body?.total ?? 0,
    });
    return scripts.map((s) => ({ kind: KIND, space, name: s.name, serverId: s.id, body: s }));
  },

  normalizeDesired(res) {
    const file = localFile(res);
    return comparable(res.spec, fileWords(file.filename, file.bytes.length, file.sha256));
  },

  normalizeLive(live) {
    return comparable(specOf(live.body), fileWords(live.body.fileName, live.body.fileSize, live.body.fileHash));
  },

  create: createScript,

  replacedOnUpdate(res, live) {
    const now = specOf(live.body);
    const dropped = [...TEXT_FIELDS.map(([key]) => key).filter((key) => now[key] !== undefined && res.spec[key] === undefined), ...(now.tags.length > 0 && !(res.spec.tags?.length > 0) ? ['tags'] : [])];
    return dropped.length > 0 ? `deleted and created again: no update clears ${dropped.join(', ')}` : undefined;
  },

  async update(ctx, res, live) {
    if (endpointScriptAdapter.replacedOnUpdate!(res, live)) {
      // No PATCH clears a field: replace the script (see above).
      await deleteScript(ctx, live);
      await createScript(ctx, res);
      return;
    }
    const file = localFile(res);
    const sameFile = file.sha256 === live.body.fileHash && file.filename === live.body.fileName;
    await ctx.api.request({
      method: 'PATCH',
      path: `${BASE}/${encodeURIComponent(live.serverId ?? '')}`,
      space: live.space,
      form: { fields: [...formFields(res.spec), ...(typeof live.body.version === 'string' ? [['version', live.body.version] as [string, string]] : [])], ...(sameFile ? {} : { file: filePart(file) }) },
    });
  },

  delete: deleteScript,

  async complete(ctx, live) {
    const res = await ctx.api.request({ method: 'GET', path: `${BASE}/${encodeURIComponent(live.serverId ?? '')}/download`, space: live.space });
    return { ...live, extra: { content: res.text } };
  },

  toSpec(live) {
    const spec = specOf(live.body);
    if (spec.tags.length === 0) delete spec.tags;
    if (spec.requires_input === false) delete spec.requires_input;
    const fileName = String(live.body.fileName ?? 'script');
    // A plain name in a folder per script: two scripts may upload files of one name.
    const safe = fileName.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || 'script';
    const folder = String(live.name).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_').slice(0, 80) || 'script';
    const path = `endpoint-scripts/${folder}/${safe}`;
    const out: { spec: Record<string, any>; files?: Record<string, string>; warnings?: string[] } = { spec: { ...spec, file: path } };
    if (safe !== fileName) out.spec.filename = fileName;
    const content: unknown = live.extra?.content;
    // The download is read as text: only a file whose text has the server's hash is written as it is.
    if (typeof content === 'string' && createHash('sha256').update(content, 'utf8').digest('hex') === live.body.fileHash) out.files = { [path]: content };
    else out.warnings = [`the file of this script is not text (${fileWords(fileName, live.body.fileSize, live.body.fileHash)}): download it from ${BASE}/${String(live.serverId)}/download into ${path}`];
    return out;
  },
};
