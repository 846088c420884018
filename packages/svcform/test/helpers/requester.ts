import type { ApiRequest, ApiResponse, Requester } from '../../src/client/types.js';
import { RunScope } from '../../src/kinds/run-scope.js';
import type { AdapterContext } from '../../src/kinds/types.js';
import { after, before, beforeEach } from 'node:test';
import type { EmulatorOptions, RunningEmulator } from '@svcform/emulator/server.js';
import { emulator, emulatorResetPerTest, readBody } from '@svcform/emulator/testing.js';

/**
 * A minimal Requester over fetch for adapter tests: no retries, no concurrency limit. It throws on
 * statuses outside 2xx and `accept`, like the real client, and counts the requests it makes.
 */
export function fetchRequester(baseUrl: string): Requester & { count: number } {
  const self = {
    count: 0,
    async request<T = any>(req: ApiRequest): Promise<ApiResponse<T>> {
      self.count += 1;
      const prefix = req.space && req.space !== 'default' ? `/s/${encodeURIComponent(req.space)}` : '';
      const url = new URL(baseUrl + prefix + req.path);
      for (const [k, v] of Object.entries(req.query ?? {})) {
        if (v === undefined || v === null) continue;
        if (Array.isArray(v)) for (const x of v) url.searchParams.append(k, String(x));
        else url.searchParams.set(k, String(v));
      }
      const headers: Record<string, string> = {};
      let body: BodyInit | undefined;
      if (req.method !== 'GET') headers['kbn-xsrf'] = 'true';
      if (req.multipart) {
        const form = new FormData();
        form.append(req.multipart.field, new Blob([typeof req.multipart.content === 'string' ? req.multipart.content : new Uint8Array(req.multipart.content)], { type: req.multipart.contentType ?? 'text/plain' }), req.multipart.filename);
        body = form;
      } else if (req.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(req.body);
      }
      const res = await fetch(url, { method: req.method, headers, body });
      const { text, body: parsed } = await readBody(res);
      if ((res.status < 200 || res.status > 299) && !(req.accept ?? []).includes(res.status)) {
        throw new Error(`${req.method} ${url.pathname} -> ${res.status}: ${parsed?.message ?? text}`);
      }
      return { status: res.status, body: parsed as T, text, headers: Object.fromEntries(res.headers.entries()) };
    },
  };
  return self;
}

/** What an adapter call gets in a test: a fetchRequester on `baseUrl`, a silent log, a run scope of its own. */
export function adapterContext(baseUrl: string): AdapterContext & { api: { count: number } } {
  return { api: fetchRequester(baseUrl), log: () => {}, run: new RunScope() };
}

/**
 * An adapter test's bed: one emulator for the describe block, reset before each test, and a fresh
 * adapterContext on it handed to `use` before each test.
 */
export function adapterTestBed(use: (emu: RunningEmulator, ctx: ReturnType<typeof adapterContext>) => void, options: EmulatorOptions = {}): void {
  let running: RunningEmulator;
  emulatorResetPerTest((emu) => (running = emu), options);
  beforeEach(() => use(running, adapterContext(running.url)));
}

/** One emulator for the describe block, kept between its tests, and one adapterContext on it. */
export function adapterTestServer(use: (emu: RunningEmulator, ctx: ReturnType<typeof adapterContext>) => void, options: EmulatorOptions = {}): void {
  let running: RunningEmulator;
  before(async () => {
    running = await emulator(options);
    use(running, adapterContext(running.url));
  });
  after(() => running.stop());
}
