import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { v8FlagsFor } from '../../src/cli/runtime-flags.js';

/**
 * src/cli/runtime-flags.ts: the CLI keeps undici's WebAssembly HTTP parser on V8's baseline compiler,
 * gives the optimizing compiler a smaller inlining budget, and detaches an ArrayBuffer at start so
 * that undici's later detach throws no optimized code away.
 */
describe('runtime flags', () => {
  it('are set in the V8 of Node 20 to 26 only, where both flags are known', () => {
    const flags = ['--liftoff-only', '--max-inlined-bytecode-size-cumulative=100'];
    assert.deepEqual(v8FlagsFor('11.3.244.8-node.38'), flags); // Node 20
    assert.deepEqual(v8FlagsFor('12.4.254.21-node.33'), flags); // Node 22
    assert.deepEqual(v8FlagsFor('13.6.233.10-node.2'), flags); // Node 24
    assert.deepEqual(v8FlagsFor('14.6.202.34-node.34'), flags); // Node 26
    assert.deepEqual(v8FlagsFor('10.2.154.26-node.36'), []); // Node 18
    assert.deepEqual(v8FlagsFor('15.0.1'), []);
  });

  it('keep the optimizing compiler from inlining a 156-byte function that V8 inlines by default', () => {
    const module = pathToFileURL(fileURLToPath(new URL('../../src/cli/runtime-flags.js', import.meta.url))).href;
    // caller() calls big() twice; V8's default budget (920 bytes) inlines it, the CLI's (100) does not.
    const probe = `
function big(a) { let s = 0; for (let i = 0; i < a.length; i++) { s += a[i] * 3 + (a[i] % 7) - (a[i] >> 1) + (a[i] | 5) + (a[i] ^ 9) + (a[i] & 3) + Math.max(a[i], 4) + Math.min(a[i], 2); } return s; }
function caller(a) { return big(a) + big(a); }
%PrepareFunctionForOptimization(caller);
caller([1, 2, 3]); caller([1, 2, 3]);
%OptimizeFunctionOnNextCall(caller);
caller([1, 2, 3]);`;
    const run = (call: string) =>
      spawnSync(process.execPath, ['--allow-natives-syntax', '--trace-turbo-inlining', '--input-type=module', '-e', `import { setRuntimeFlags } from ${JSON.stringify(module)}; ${call}\n${probe}`], { encoding: 'utf8' });
    const inlined = (out: string) => /^Inlining .*SharedFunctionInfo big>.* into .*SharedFunctionInfo caller>/m.test(out);
    const byDefault = run('');
    assert.equal(byDefault.status, 0, byDefault.stderr);
    assert.equal(inlined(byDefault.stdout), true, byDefault.stdout);
    const withFlags = run('setRuntimeFlags();');
    assert.equal(withFlags.status, 0, withFlags.stderr);
    assert.match(withFlags.stdout, /candidate\(s\) for inlining/, 'the compiler looked at big()');
    assert.equal(inlined(withFlags.stdout), false, withFlags.stdout);
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
