import { after, before, beforeEach } from 'node:test';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from './server.js';

export interface CallResult {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/** JSON when the body is JSON; the text either way. */
export async function readBody(res: Response): Promise<{ text: string; body: any }> {
  const text = await res.text();
  try {
    return { text, body: text ? JSON.parse(text) : undefined };
  } catch {
    return { text, body: undefined };
  }
}

async function readResult(res: Response): Promise<CallResult> {
  const { text, body } = await readBody(res);
  return { status: res.status, body, text, headers: res.headers };
}

/** A raw HTTP call to the emulator: JSON in, JSON (or text) out, kbn-xsrf set unless told not to. */
export async function call(
  emu: { url: string },
  method: string,
  path: string,
  body?: unknown,
  options: { headers?: Record<string, string>; xsrf?: boolean; raw?: BodyInit; contentType?: string } = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.xsrf !== false && method !== 'GET') headers['kbn-xsrf'] = 'true';
  let payload: BodyInit | undefined = options.raw;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  } else if (options.contentType) headers['content-type'] = options.contentType;
  const res = await fetch(emu.url + path, { method, headers, body: payload });
  return readResult(res);
}

/** A multipart/form-data body with one `file` part, as import endpoints take. */
export function fileForm(content: string, filename = 'import.ndjson'): FormData {
  const form = new FormData();
  form.append('file', new Blob([content]), filename);
  return form;
}

/**
 * A multipart/form-data body of text fields and an optional `file` part, as the scripts library
 * takes: arrays and booleans as their JSON text (what the server's UI sends).
 */
export function multipartForm(fields: Record<string, unknown>, file?: { content: string | Uint8Array; filename: string }): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  if (file) form.append('file', new Blob([file.content as BlobPart]), file.filename);
  return form;
}

export async function postFile(emu: { url: string }, path: string, content: string, filename?: string): Promise<CallResult> {
  const res = await fetch(emu.url + path, { method: 'POST', headers: { 'kbn-xsrf': 'true' }, body: fileForm(content, filename) });
  return readResult(res);
}

/** Starts an emulator on port 0 for one test file; call the returned stop in `after`. */
export async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, ...options });
}

/**
 * Two API keys for privilege tests: `ApiKey full` (user ops, every privilege) and `ApiKey viewer`
 * (read-only), with the request options that send each.
 */
export const KEYS = {
  credentials: [
    { type: 'apiKey', secret: 'full', user: 'ops' },
    { type: 'apiKey', secret: 'viewer', user: 'viewer', readOnly: true },
  ] satisfies EmulatorOptions['credentials'],
  full: { headers: { authorization: 'ApiKey full' } },
  viewer: { headers: { authorization: 'ApiKey viewer' } },
};

/**
 * One emulator for the enclosing describe block, reset before each of its tests: registers the
 * hooks and hands the running emulator to `use` once started.
 */
export function emulatorResetPerTest(use: (emu: RunningEmulator) => void, options: EmulatorOptions = {}): void {
  let running: RunningEmulator;
  before(async () => {
    running = await emulator(options);
    use(running);
  });
  after(() => running.stop());
  beforeEach(async () => {
    await call(running, 'POST', '/__emulator/reset');
  });
}
