import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A plan lists its changes by wave, then kind, space and name in code-unit order (graph.ts,
 * common/compare-text.ts), so the same manifests give the same plan on every machine. Ordered by
 * localeCompare, the runner's locale decided: under LANG=sv_SE.UTF-8 `å` sorts after `z`.
 */
describe('the order of a plan', () => {
  it('is the same whatever the locale, and code-unit order within a wave', () => {
    const graph = pathToFileURL(fileURLToPath(new URL('../../src/engine/graph.js', import.meta.url))).href;
    const script = `import { orderChanges } from ${JSON.stringify(graph)};
const change = (name, space = 'default') => ({ id: 'Rule/' + space + '/' + name, kind: 'Rule', space, name, action: 'create', dependsOn: [], wave: 0, fields: [], patch: [] });
const changes = ['zeta', 'ålborg', 'alpha', 'Beta', 'äpple'].map((n) => change(n)).concat([change('x', 'Sécurité'), change('x', 'soc')]);
console.log(JSON.stringify(orderChanges(changes, []).map((c) => c.space + '/' + c.name)));`;
    const order = (lang: string) => {
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH, LANG: lang, LC_ALL: lang } });
      assert.equal(child.status, 0, child.stderr);
      return JSON.parse(child.stdout) as string[];
    };
    const expected = ['Sécurité/x', 'default/Beta', 'default/alpha', 'default/zeta', 'default/äpple', 'default/ålborg', 'soc/x'];
    assert.deepEqual(order('en_US.UTF-8'), expected);
    assert.deepEqual(order('sv_SE.UTF-8'), expected);
  });
});
