import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator, postFile } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';
import { MAX_ITEMS_IMPORT_BYTES } from '../src/areas/lists/item-routes.js';

describe('emulator: list items _import body limit', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
    await call(emu, 'POST', '/api/lists/index');
    await call(emu, 'POST', '/api/lists', { id: 'big', name: 'Big', description: 'd', type: 'keyword' });
  });
  after(() => emu.stop());

  it(`answers 413 past ${MAX_ITEMS_IMPORT_BYTES} bytes and imports nothing (wire-facts 3.1 "max 9 000 000 bytes"; lists server/config.ts maxImportPayloadBytes)`, async () => {
    const line = 'x'.repeat(99);
    const values = Array.from({ length: Math.ceil(MAX_ITEMS_IMPORT_BYTES / 100) + 10 }, (_, i) => `${line.slice(String(i).length)}${i}`);
    const res = await postFile(emu, '/api/lists/items/_import?list_id=big', values.join('\n') + '\n', 'big.txt');
    assert.equal(res.status, 413);
    assert.deepEqual(res.body, { statusCode: 413, error: 'Payload Too Large', message: `Payload content length greater than maximum allowed: ${MAX_ITEMS_IMPORT_BYTES}` });
    assert.equal((await call(emu, 'GET', '/api/lists/items/_find?list_id=big&per_page=1')).body.total, 0);
  });
});
