import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { keepsWasmOnBaseline } from '../../src/cli/runtime-flags.js';

/**
 * src/cli/runtime-flags.ts: the CLI keeps undici's WebAssembly HTTP parser on V8's baseline compiler,
 * and detaches an ArrayBuffer at start so that undici's later detach throws no optimized code away.
 */
describe('runtime flags', () => {
  it('are set in the V8 of Node 20 to 25 only, where --liftoff-only is known', () => {
    assert.equal(keepsWasmOnBaseline('11.3.244.8-node.38'), true); // Node 20
    assert.equal(keepsWasmOnBaseline('12.4.254.21-node.33'), true); // Node 22
    assert.equal(keepsWasmOnBaseline('13.6.233.10-node.2'), true); // Node 24
    assert.equal(keepsWasmOnBaseline('10.2.154.26-node.36'), false); // Node 18
    assert.equal(keepsWasmOnBaseline('15.0.1'), false);
  });

  it('are set in this Node without a word on stderr (V8 names a flag it does not know there)', () => {
    const module = pathToFileURL(fileURLToPath(new URL('../../src/cli/runtime-flags.js', import.meta.url))).href;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', `import { setRuntimeFlags } from ${JSON.stringify(module)}; setRuntimeFlags(); await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));`], { encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stderr, '');
  });

  it('detach an ArrayBuffer at start, which V8 reports once as the ArrayBufferDetaching protector falling', () => {
    const module = pathToFileURL(fileURLToPath(new URL('../../src/cli/runtime-flags.js', import.meta.url))).href;
    const run = (call: string) =>
      spawnSync(process.execPath, ['--trace-protector-invalidation', '--input-type=module', '-e', `import { setRuntimeFlags } from ${JSON.stringify(module)}; ${call}`], { encoding: 'utf8' });
    const fell = (out: string) => out.split('\n').filter((line) => line.includes('protector') && line.includes('ArrayBufferDetaching')).length;
    const withFlags = run('setRuntimeFlags();');
    assert.equal(withFlags.status, 0, withFlags.stderr);
    assert.equal(fell(withFlags.stdout), 1, withFlags.stdout);
    // The module alone detaches nothing: the report above comes from the call.
    const without = run('');
    assert.equal(without.status, 0, without.stderr);
    assert.equal(fell(without.stdout), 0, without.stdout);
  });
});
