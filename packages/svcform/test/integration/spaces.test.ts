import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulatorResetPerTest } from '@svcform/emulator/testing.js';
import { cli, shown } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';

/** Issue 32: svcform creates the spaces it writes into, and deletes one only when told to. */

const spaceYaml = (id: string, name = `Team ${id}`) => ['apiVersion: svcform/v1', 'kind: Space', `metadata: {name: ${id}}`, `spec: {name: ${name}, disabledFeatures: [canvas]}`, ''].join('\n');
const connectorIn = (space: string, name: string) =>
  ['apiVersion: svcform/v1', 'kind: Connector', `metadata: {name: ${name}, space: ${space}}`, `spec: {name: ${name} log, connector_type_id: .server-log}`, ''].join('\n');
const valueListIn = (space: string, name: string) =>
  ['apiVersion: svcform/v1', 'kind: ValueList', `metadata: {name: ${name}, space: ${space}}`, `spec: {name: ${name}, description: d, type: ip, items: [10.0.0.1]}`, ''].join('\n');

describe('spaces as objects', () => {
  let emu: RunningEmulator;
  emulatorResetPerTest((e) => (emu = e));
  const run = (args: string[]) => cli([...args, '--url', emu.url]);

  it('plans a declared space that does not exist yet as empty, and creates it before what goes in it', async () => {
    const dir = repo({ 'soc.yaml': spaceYaml('soc'), 'hook.yaml': connectorIn('soc', 'soc-hook'), 'list.yaml': valueListIn('soc', 'soc-ips') });
    const planned = await run(['plan', dir, '--json']);
    assert.equal(planned.code, 0, shown(planned));
    const plan = JSON.parse(planned.out);
    const byId = new Map(plan.changes.map((c: any) => [`${c.action} ${c.kind}/${c.name}`, c]));
    const space: any = byId.get('create Space/soc');
    const hook: any = byId.get('create Connector/soc-hook');
    const list: any = byId.get('create ValueList/soc-ips');
    assert.ok(space && hook && list, planned.out);
    assert.ok(hook.wave > space.wave, 'the connector waits for its space');
    // The list data streams of the new space are not there yet: that step waits for the space too.
    const prerequisite: any = plan.changes.find((c: any) => c.action === 'prerequisite' && c.space === 'soc');
    assert.ok(prerequisite && prerequisite.wave > space.wave, planned.out);

    const applied = await run(['apply', dir]);
    assert.equal(applied.code, 0, shown(applied));
    assert.equal((await call(emu, 'GET', '/s/soc/api/actions/connector/soc-hook')).status, 200);
    const again = await run(['plan', dir, '--detailed-exitcode']);
    assert.equal(again.code, 0, shown(again));
  });

  it('still refuses a space that neither exists nor is declared', async () => {
    const dir = repo({ 'hook.yaml': connectorIn('nowhere', 'hook') });
    const planned = await run(['plan', dir]);
    assert.equal(planned.code, 1, shown(planned));
    assert.match(planned.err, /nowhere/);
  });

  it('never deletes a space on a manage scope alone: the plan lists what is in it and refuses; --allow-space-delete approves it', async () => {
    const dir = repo({ 'soc.yaml': spaceYaml('soc'), 'hook.yaml': connectorIn('soc', 'soc-hook'), 'ops.yaml': spaceYaml('ops') });
    assert.equal((await run(['apply', dir])).code, 0);
    const config = join(repo({}), 'svcform.yaml');
    writeFileSync(config, 'manage:\n  - kind: Space\n');
    const left = repo({ 'ops.yaml': spaceYaml('ops') });

    for (const command of [['plan', left], ['apply', left, '--auto-approve']]) {
      emu.log.clear();
      const refused = await run([...command, '--config', config]);
      assert.equal(refused.code, 1, shown(refused));
      const text = refused.out + refused.err;
      // The server seeds its default anonymization fields in every space: they go with it too, and are named.
      assert.match(text, /deleting space soc deletes everything in it, \d+ objects? svcform sees: (AnonymizationField \d+ \([^)]*\); )?Connector 1 \(soc-hook\)/, shown(refused));
      assert.match(text, /--allow-space-delete soc/);
      assert.deepEqual(emu.log.all().filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`).filter((w) => !w.includes('/api/actions/connector/') && !w.endsWith('/_review')), [], 'nothing is written but the lease (reviews of prebuilt rules are reads)');
      assert.equal((await call(emu, 'GET', '/api/spaces/space/soc')).status, 200);
    }

    // Approving another space approves nothing here.
    const other = await run(['plan', left, '--config', config, '--allow-space-delete', 'ops']);
    assert.equal(other.code, 1, shown(other));

    const planned = await run(['plan', left, '--config', config, '--allow-space-delete', 'soc']);
    assert.equal(planned.code, 0, shown(planned));
    assert.match(planned.out, /- delete Space\/soc/);
    assert.match(planned.out, /deletes everything in it, \d+ objects? svcform sees: (AnonymizationField \d+ \([^)]*\); )?Connector 1 \(soc-hook\)/);
    const applied = await run(['apply', left, '--config', config, '--allow-space-delete', 'soc', '--auto-approve']);
    assert.equal(applied.code, 0, shown(applied));
    assert.equal((await call(emu, 'GET', '/api/spaces/space/soc')).status, 404);
    assert.equal((await call(emu, 'GET', '/api/spaces/space/ops')).status, 200);
  });

  it('a saved plan keeps its approval of a space delete: apply --plan carries it out', async () => {
    const dir = repo({ 'soc.yaml': spaceYaml('soc') });
    assert.equal((await run(['apply', dir])).code, 0);
    const root = repo({ 'svcform.yaml': 'manage:\n  - kind: Space\n', 'manifests/ops.yaml': spaceYaml('ops') });
    const saved = join(root, 'plan.json');
    const planned = await run(['plan', join(root, 'manifests'), '--config', join(root, 'svcform.yaml'), '--allow-space-delete', 'soc', '--out', saved]);
    assert.equal(planned.code, 0, shown(planned));
    const applied = await run(['apply', '--plan', saved]);
    assert.equal(applied.code, 0, shown(applied));
    assert.equal((await call(emu, 'GET', '/api/spaces/space/soc')).status, 404);
  });

  it('deletes what it owns in a space before the space, and refuses to write into a space it deletes', async () => {
    const dir = repo({ 'soc.yaml': spaceYaml('soc'), 'hook.yaml': connectorIn('soc', 'soc-hook') });
    assert.equal((await run(['apply', dir])).code, 0);
    const config = join(repo({}), 'svcform.yaml');
    writeFileSync(config, 'manage:\n  - kind: Space\n  - kind: Connector\n    spaces: [soc]\n');
    const planned = await run(['plan', repo({ 'x.yaml': spaceYaml('ops') }), '--config', config, '--allow-space-delete', 'soc', '--json']);
    assert.equal(planned.code, 0, shown(planned));
    const plan = JSON.parse(planned.out);
    const wave = (id: string) => plan.changes.find((c: any) => `${c.action} ${c.kind}/${c.name}` === id)?.wave;
    assert.ok(wave('delete Space/soc') > wave('delete Connector/soc-hook'), planned.out);

    const writes = await run(['plan', repo({ 'hook.yaml': connectorIn('soc', 'soc-hook2') }), '--config', config, '--allow-space-delete', 'soc']);
    assert.equal(writes.code, 1, shown(writes));
    assert.match(writes.out + writes.err, /the plan deletes this space and writes into it \(Connector\/soc-hook2\)/);
  });

  it('keeps a space field the server cannot remove, saying so, instead of pretending to remove it', async () => {
    const colored = ['apiVersion: svcform/v1', 'kind: Space', 'metadata: {name: art}', "spec: {name: Art, color: '#112233'}", ''].join('\n');
    assert.equal((await run(['apply', repo({ 's.yaml': colored })])).code, 0);
    const plain = repo({ 's.yaml': spaceYaml('art', 'Art') });
    const applied = await run(['apply', plain]);
    assert.equal(applied.code, 1, shown(applied));
    assert.match(applied.out + applied.err, /keeps a space's color when an update leaves it out/);
    assert.equal((await call(emu, 'GET', '/api/spaces/space/art')).body.color, '#112233');
  });

  it("clears a space's image with imageUrl: '', which the space schema takes (Kibana spaces space_schema: only a non-empty imageUrl must start with data:image)", async () => {
    const space = (image: string) => ['apiVersion: svcform/v1', 'kind: Space', 'metadata: {name: gallery}', `spec: {name: Gallery, imageUrl: '${image}'}`, ''].join('\n');
    assert.equal((await run(['apply', repo({ 's.yaml': space('data:image/png;base64,AAAA') })])).code, 0);
    const dropped = await run(['apply', repo({ 's.yaml': spaceYaml('gallery', 'Gallery') })]);
    assert.equal(dropped.code, 1, shown(dropped));
    assert.match(dropped.out + dropped.err, /keeps a space's imageUrl when an update leaves it out.*; imageUrl: '' clears the image/);
    const cleared = repo({ 's.yaml': space('') });
    const applied = await run(['apply', cleared]);
    assert.equal(applied.code, 0, shown(applied));
    assert.equal((await call(emu, 'GET', '/api/spaces/space/gallery')).body.imageUrl, '');
    assert.equal((await run(['plan', cleared, '--detailed-exitcode'])).code, 0);
  });
});
