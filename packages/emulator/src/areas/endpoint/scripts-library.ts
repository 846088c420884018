import { createHash } from 'node:crypto';
import type { EmulatorArea } from '../../area.js';
import { schema, validateRequest, type Schema } from '../../config-schema.js';
import type { EmulatorContext } from '../../context.js';
import { EmuError, badRequest, notFound } from '../../errors.js';
import type { EmuRequest, MultipartForm } from '../../router.js';
import { MAX_SCRIPT_FILE_BYTES, SCRIPT_FILE_TYPES, SCRIPT_PLATFORMS, SCRIPT_TAGS } from '../../facts/endpoint-scripts.js';

/**
 * The endpoint scripts library (9.4; service-api.md Endpoint management names the operations, not
 * their routes). Routes from the server's source (security_solution server/endpoint/routes/
 * scripts_library/): POST and GET /api/endpoint/scripts_library, GET, PATCH and DELETE
 * /api/endpoint/scripts_library/{script_id}, GET .../{script_id}/download. Create and update take
 * multipart/form-data (hapi `output: 'stream'`): every field is a text part, arrays and booleans as
 * their JSON text (the UI's usePostEndpointScript), the script in the `file` part. The file is kept
 * in file storage with its SHA-256, which every reply reports (`fileHash`, with `fileName` and
 * `fileSize`); a file whose hash another script of the space already has is refused (400). Space
 * aware (a saved object per script, in the caller's space). Reads need read, writes all.
 */

const BASE = '/api/endpoint/scripts_library';

const nonEmpty = (v: string) => (v.trim().length === 0 ? 'Value can not be an empty string' : undefined);
const noDuplicates = (v: unknown[]) => (new Set(v).size !== v.length ? 'Duplicate values are not allowed' : undefined);
const text = () => schema.string({ minLength: 1, check: nonEmpty });
const oneOfLiterals = (values: readonly string[]) => schema.oneOf(values.map((v) => schema.literal(v)));
const platform = () => schema.arrayOf(oneOfLiterals(SCRIPT_PLATFORMS), { minSize: 1, maxSize: 3, check: noDuplicates });
const tags = () => schema.arrayOf(oneOfLiterals(SCRIPT_TAGS), { minSize: 1, maxSize: SCRIPT_TAGS.length, check: noDuplicates });
/** The `file` part: a stream (schema.stream()); stood in for by a marker once the part is checked. */
const FILE = schema.literal('<file part>');

const fields = {
  requiresInput: schema.boolean(),
  description: text(),
  instructions: text(),
  example: text(),
  pathToExecutable: text(),
};

/** CreateScriptRequestSchema. */
const CreateBody = schema.object({
  name: text(),
  platform: platform(),
  file: FILE,
  fileType: oneOfLiterals(SCRIPT_FILE_TYPES),
  ...Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, schema.maybe(s)])),
  tags: schema.maybe(tags()),
});

/** PatchUpdateScriptRequestSchema: any of the fields, at least one besides `version`. */
const UpdateBody = schema.object(
  {
    name: schema.maybe(text()),
    platform: schema.maybe(platform()),
    file: schema.maybe(FILE),
    fileType: schema.maybe(oneOfLiterals(SCRIPT_FILE_TYPES)),
    ...Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, schema.maybe(s)])),
    tags: schema.maybe(tags()),
    version: schema.maybe(text()),
  },
  { check: ({ version: _version, ...updates }) => (Object.keys(updates).length === 0 ? 'At least one field must be defined for update' : undefined) },
);

const ListQuery = schema.object({
  page: schema.maybe(schema.number({ min: 1 })),
  pageSize: schema.maybe(schema.number({ min: 1, max: 1000 })),
  sortField: schema.maybe(oneOfLiterals(['name', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy', 'fileSize'])),
  sortDirection: schema.maybe(oneOfLiterals(['asc', 'desc'])),
});

export interface ScriptRecord {
  id: string;
  name: string;
  platform: string[];
  fileType?: string;
  requiresInput: boolean;
  description?: string;
  instructions?: string;
  example?: string;
  pathToExecutable?: string;
  tags: string[];
  fileId: string;
  fileName: string;
  fileSize: number;
  fileHash: string;
  /** The file's bytes, base64 (the state file is JSON). */
  content: string;
  contentType: string;
  createdBy: string;
  createdAt: string;
  updatedBy: string;
  updatedAt: string;
  /** The saved object's version counter (the reply's `version` encodes it). */
  seq: number;
}

interface ScriptsState {
  scripts: Record<string, ScriptRecord>;
}

function state(ctx: EmulatorContext, space: string): ScriptsState {
  return ctx.store.area<ScriptsState>(space, 'endpoint-scripts', () => ({ scripts: {} }));
}

/** A saved object's version as the server spells it: base64 of `[seq,primaryTerm]`. */
const versionOf = (r: ScriptRecord) => Buffer.from(JSON.stringify([r.seq, 1])).toString('base64');

function reply(r: ScriptRecord): Record<string, unknown> {
  const { content: _content, contentType: _type, seq: _seq, ...fieldsOut } = r;
  return { ...fieldsOut, downloadUri: `${BASE}/${r.id}/download`, version: versionOf(r) };
}

/** The form's fields as the validation sees them: one value a string, a repeated name an array; the file part as its marker. */
function formBody(req: EmuRequest): Record<string, unknown> {
  const form: MultipartForm | undefined = req.form;
  if (!form) throw badRequest('[request body]: expected a multipart/form-data body');
  const body: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(form.fields)) body[name] = values.length === 1 ? values[0] : values;
  if (typeof body.file === 'string') throw badRequest('[request body.file]: expected value of type [Stream] but got [string]');
  for (const name of Object.keys(form.files)) body[name] = name === 'file' ? '<file part>' : {};
  return body;
}

function tooLarge(req: EmuRequest): void {
  // hapi refuses the body before the handler: 413 with the limit in bytes.
  if (req.rawBody.length > MAX_SCRIPT_FILE_BYTES) throw new EmuError(413, `Payload content length greater than maximum allowed: ${MAX_SCRIPT_FILE_BYTES}`);
}

/** Stores the file part; refuses a file another script of the space already has (ScriptsLibraryClient.storeFile). */
function storeFile(req: EmuRequest, ctx: EmulatorContext, scriptId: string): Pick<ScriptRecord, 'fileId' | 'fileName' | 'fileSize' | 'fileHash' | 'content' | 'contentType'> {
  const part = req.form!.files.file!;
  const fileHash = createHash('sha256').update(part.bytes).digest('hex');
  const same = Object.values(state(ctx, req.space).scripts).find((s) => s.fileHash === fileHash && s.id !== scriptId);
  if (same) {
    throw badRequest(`The file you are attempting to upload (hash: [${fileHash}]) already exists and is associated with a script entry named [${same.name}] (script ID: [${same.id}])`);
  }
  return { fileId: ctx.uuid(), fileName: part.filename || 'script_file', fileSize: part.bytes.length, fileHash, content: part.bytes.toString('base64'), contentType: part.contentType || 'application/octet-stream' };
}

function scriptOr404(ctx: EmulatorContext, space: string, id: string): ScriptRecord {
  const found = state(ctx, space).scripts[id];
  if (!found) throw notFound(`Script with id ${id} not found`);
  return found;
}

function create(req: EmuRequest, ctx: EmulatorContext) {
  tooLarge(req);
  const body = validateRequest<Record<string, any>>(CreateBody, formBody(req));
  const id = ctx.uuid();
  const now = ctx.now().toISOString();
  const record: ScriptRecord = {
    id,
    name: body.name,
    platform: body.platform,
    fileType: body.fileType,
    requiresInput: body.requiresInput ?? false,
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.instructions !== undefined ? { instructions: body.instructions } : {}),
    ...(body.example !== undefined ? { example: body.example } : {}),
    ...(body.pathToExecutable !== undefined ? { pathToExecutable: body.pathToExecutable } : {}),
    tags: body.tags ?? [],
    ...storeFile(req, ctx, id),
    createdBy: req.user,
    createdAt: now,
    updatedBy: req.user,
    updatedAt: now,
    seq: 1,
  };
  state(ctx, req.space).scripts[id] = record;
  return { body: { data: reply(record) } };
}

function update(req: EmuRequest, ctx: EmulatorContext) {
  tooLarge(req);
  const body = validateRequest<Record<string, any>>(UpdateBody, formBody(req));
  const record = scriptOr404(ctx, req.space, req.params.script_id!);
  if (body.version !== undefined && body.version !== versionOf(record)) {
    throw new EmuError(409, `Script with id ${record.id} has a different version than the one provided in the request. Current version: ${versionOf(record)}, provided version: ${body.version}`);
  }
  const file = body.file !== undefined ? storeFile(req, ctx, record.id) : {};
  const { file: _file, version: _version, ...changes } = body;
  Object.assign(record, changes, file, { updatedBy: req.user, updatedAt: ctx.now().toISOString(), seq: record.seq + 1 });
  return { body: { data: reply(record) } };
}

function list(req: EmuRequest, ctx: EmulatorContext) {
  const q = validateRequest<Record<string, any>>(ListQuery as Schema, Object.fromEntries(req.query.entries()), 'request query');
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 10;
  const sortField: keyof ScriptRecord = q.sortField ?? 'name';
  const dir = q.sortDirection === 'desc' ? -1 : 1;
  const all = Object.values(state(ctx, req.space).scripts).sort((a, b) => {
    const x = a[sortField] as string | number;
    const y = b[sortField] as string | number;
    return (x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : 1) * dir;
  });
  return { body: { data: all.slice((page - 1) * pageSize, page * pageSize).map(reply), total: all.length, page, pageSize, sortField, sortDirection: q.sortDirection ?? 'asc' } };
}

export const endpointScriptsArea: EmulatorArea = {
  name: 'endpoint-scripts',
  register(router) {
    router.post(BASE, create, { access: 'all' });
    router.get(BASE, list, { access: 'read' });
    router.get(`${BASE}/:script_id`, (req, ctx) => ({ body: { data: reply(scriptOr404(ctx, req.space, req.params.script_id!)) } }), { access: 'read' });
    router.patch(`${BASE}/:script_id`, update, { access: 'all' });
    router.delete(`${BASE}/:script_id`, (req, ctx) => {
      scriptOr404(ctx, req.space, req.params.script_id!);
      delete state(ctx, req.space).scripts[req.params.script_id!];
      return { status: 200, text: '' };
    }, { access: 'all' });
    router.get(`${BASE}/:script_id/download`, (req, ctx) => {
      const r = scriptOr404(ctx, req.space, req.params.script_id!);
      return { bytes: Buffer.from(r.content, 'base64'), contentType: r.contentType, headers: { 'content-disposition': `attachment; filename="${r.fileName.replace(/"/g, '')}"` } };
    }, { access: 'read' });
  },
};
