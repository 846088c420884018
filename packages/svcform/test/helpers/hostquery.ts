import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call } from '@svcform/emulator/testing.js';

export const SQ = '/api/hostquery/saved_queries';
export const PACKS = '/api/hostquery/packs';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let counter = 0;
/** A name no other test of the process uses. */
export const unique = (prefix: string) => `${prefix}-${++counter}`;

/** A saved query made through the API (2xx asserted); its `data`. */
export async function createSavedQuery(emu: RunningEmulator, body: Record<string, unknown> = {}, space = '') {
  const res = await call(emu, 'POST', `${space}${SQ}`, { id: unique('sq'), query: 'SELECT 1;', interval: '60', ...body });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}
