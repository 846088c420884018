import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EmulatorOptions, RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator, postFile } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

/** `prepare` on an emulator saving to a new state file, then `check` on another started from that file. */
async function acrossRestart(options: EmulatorOptions, prepare: (emu: RunningEmulator) => Promise<void>, check: (emu: RunningEmulator) => Promise<void>): Promise<void> {
  const stateFile = join(mkdtempSync(join(tmpdir(), 'svcform-persist-')), 'state.json');
  const first = await emulator({ ...options, stateFile });
  try {
    await prepare(first);
  } finally {
    await first.stop();
  }
  const second = await emulator({ stateFile });
  try {
    await check(second);
  } finally {
    await second.stop();
  }
}

/** The list data streams and one list. */
async function createList(emu: RunningEmulator, id: string, type: string): Promise<void> {
  assert.equal((await call(emu, 'POST', '/api/lists/index')).status, 200);
  assert.equal((await call(emu, 'POST', '/api/lists', { id, name: id, description: id, type })).status, 200);
}

describe('emulator --state: a restart loses nothing, in any area or space', () => {
  it('keeps every object of every area after a restart, so plan stays empty', async () => {
    let before: unknown;
    await acrossRestart(
      { spaces: ['soc'] },
      async (first) => {
        const applied = await cli(['apply', 'examples', '--url', first.url]);
        assert.equal(applied.code, 0, applied.out + applied.err);
        // One object in another space, to show it stays there and only there.
        assert.equal((await call(first, 'POST', '/s/soc/api/actions/connector/soc-only', { name: 'soc only', connector_type_id: '.server-log' })).status, 200);
        before = (await call(first, 'GET', '/__emulator/state')).body;
      },
      async (second) => {
        assert.deepEqual((await call(second, 'GET', '/__emulator/state')).body, before);
        const planned = await cli(['plan', 'examples', '--url', second.url, '--detailed-exitcode']);
        assert.equal(planned.code, 0, planned.out + planned.err);
        assert.match(planned.out, /Plan: 0 to create, 0 to update, 0 to delete/);
        assert.equal((await call(second, 'GET', '/s/soc/api/actions/connector/soc-only')).status, 200);
        assert.equal((await call(second, 'GET', '/api/actions/connector/soc-only')).status, 404);
      },
    );
  });

  it('a value list read back from the state file answers _find and export, and takes deletes and additions', async () => {
    const prepare = async (first: RunningEmulator) => {
      await createList(first, 'feed', 'ip');
      assert.equal((await postFile(first, '/api/lists/items/_import?list_id=feed', '10.0.0.1\n10.0.0.2\n10.0.0.3\n', 'feed.txt')).status, 200);
    };
    await acrossRestart({}, prepare, async (second) => {
      const exported = async () => (await call(second, 'POST', '/api/lists/items/_export?list_id=feed')).text;
      assert.equal((await call(second, 'DELETE', '/api/lists/items?list_id=feed&value=10.0.0.2')).status, 200);
      assert.equal(await exported(), '10.0.0.1\n10.0.0.3\n');
      assert.equal((await call(second, 'POST', '/api/lists/items', { list_id: 'feed', value: '10.0.0.4' })).status, 200);
      assert.equal((await call(second, 'DELETE', '/api/lists/items?list_id=feed&value=10.0.0.1')).status, 200);
      assert.equal(await exported(), '10.0.0.3\n10.0.0.4\n');
      const found = (await call(second, 'GET', '/api/lists/items/_find?list_id=feed')).body;
      assert.deepEqual(found.data.map((item: { value: string }) => item.value), ['10.0.0.3', '10.0.0.4']);
      assert.equal(found.total, 2);
    });
  });

  it('list item ids and values such as __proto__ and constructor are kept as data, across a restart too', async () => {
    const prepare = async (first: RunningEmulator) => {
      await createList(first, 'words', 'keyword');
      for (const [id, value] of [['__proto__', '__proto__'], ['constructor', 'constructor'], ['plain', 'hasOwnProperty']]) {
        assert.equal((await call(first, 'POST', '/api/lists/items', { list_id: 'words', id, value })).status, 200, id);
      }
    };
    await acrossRestart({}, prepare, async (second) => {
      const values = async () => (await call(second, 'POST', '/api/lists/items/_export?list_id=words')).text.split('\n').filter(Boolean).sort();
      assert.deepEqual(await values(), ['__proto__', 'constructor', 'hasOwnProperty']);
      assert.equal((await call(second, 'GET', '/api/lists/items?id=__proto__')).body.value, '__proto__');
      assert.equal((await call(second, 'DELETE', '/api/lists/items?list_id=words&value=constructor')).status, 200);
      assert.deepEqual(await values(), ['__proto__', 'hasOwnProperty']);
    });
  });
});
