import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { adapterTestBed } from '../helpers/requester.js';
import { SvcClient } from '../../src/client/client.js';
import { resource } from '../helpers/resource.js';
import { repo } from '../helpers/repo.js';
import { anonymizationFieldAdapter as adapter } from '../../src/kinds/anonymization-field.js';
import type { AdapterContext } from '../../src/kinds/types.js';
import { RunScope } from '../../src/kinds/run-scope.js';

const RUN = new RunScope();
const field = (name: string, body: string) => `apiVersion: svcform/v1\nkind: AnonymizationField\nmetadata:\n  name: '${name}'\nspec:\n${body}`;

describe('AnonymizationField kind', () => {
  let emu: RunningEmulator;
  let ctx: AdapterContext;
  adapterTestBed((e, c) => {
    emu = e;
    ctx = c;
  });

  it('_id with allowed: false is a validate error at its file, line and field, and nothing is written', async () => {
    const dir = repo({ 'fields.yaml': field('_id', '  allowed: false\n  anonymized: true\n') });
    for (const command of ['validate', 'plan', 'apply']) {
      emu.log.clear();
      const run = await cli(command === 'validate' ? ['validate', dir] : [command, dir, '--url', emu.url]);
      assert.equal(run.code, 1, `${command}: ${run.out}${run.err}`);
      assert.match(run.out + run.err, /fields\.yaml:6:3: AnonymizationField\/_id: spec\.allowed must stay true for _id/);
      assert.deepEqual(emu.log.all().filter((r) => r.method !== 'GET').map((r) => r.path), [], `${command} wrote nothing`);
    }
  });

  it('_id without allowed is refused too (a flag left out is false), at spec', async () => {
    const run = await cli(['validate', repo({ 'fields.yaml': field('_id', '  anonymized: true\n') })]);
    assert.equal(run.code, 1, run.out + run.err);
    assert.match(run.out + run.err, /fields\.yaml:5:1: AnonymizationField\/_id: spec\.allowed is required for _id, and must be true/);
  });

  it('another field may be denied; _id allowed and anonymized is fine', async () => {
    const run = await cli(['validate', repo({ 'a.yaml': field('_id', '  allowed: true\n  anonymized: true\n'), 'b.yaml': field('host.name', '  allowed: false\n') })]);
    assert.equal(run.code, 0, run.out + run.err);
  });

  it('updates a default field in place by its server id, and creates a new one; flags left out compare as false', async () => {
    const dir = repo({ 'a.yaml': field('host.name', '  allowed: true\n  anonymized: false\n'), 'b.yaml': field('dns.question.name', '  allowed: true\n') });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.match(applied.out, /update AnonymizationField\/host\.name/);
    assert.match(applied.out, /create AnonymizationField\/dns\.question\.name/);
    const live = await adapter.list(ctx, 'default');
    const host = live.find((o) => o.name === 'host.name')!;
    assert.deepEqual(adapter.normalizeLive(host, RUN), { allowed: true, anonymized: false });
    assert.equal(live.filter((o) => o.name === 'host.name').length, 1, 'updated, not duplicated');
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'])).code, 0);
  });

  it('a delete of a field that is already gone succeeds (the bulk route answers it with 500)', async () => {
    // The real client: the adapter judges its ApiError's status.
    const real: AdapterContext = { api: new SvcClient({ url: emu.url }), log: () => {}, run: new RunScope() };
    await adapter.create(real, resource('AnonymizationField', 'gone.field', { allowed: true }));
    const [live] = (await adapter.list(real, 'default')).filter((o) => o.name === 'gone.field');
    await call(emu, 'POST', '/api/security_ai_assistant/anonymization_fields/_bulk_action', { delete: { ids: [live.serverId] } });
    await adapter.delete(real, live);
    // Any other refusal is still an error.
    await assert.rejects(adapter.delete(real, { ...live, serverId: undefined }), /400/);
  });
  it('a manage scope over the fields deletes the undeclared defaults but never _id, which attack discovery needs (service-api.md line 437)', async () => {
    const dir = repo({ 'svcform.yaml': 'manage:\n  - kind: AnonymizationField\n', 'a.yaml': field('host.name', '  allowed: true\n') });
    const planned = await cli(['plan', dir, '--url', emu.url, '--json']);
    assert.equal(planned.code, 0, planned.err);
    const plan = JSON.parse(planned.out);
    const deleted = plan.changes.filter((c: any) => c.action === 'delete').map((c: any) => c.name);
    assert.ok(deleted.length > 0, 'the other undeclared defaults are deleted');
    assert.ok(!deleted.includes('_id'), JSON.stringify(deleted));
    assert.match(plan.unmanaged.find((o: any) => o.name === '_id')?.kept ?? '', /every attack discovery generation fails without it/);
    // Declared, _id is managed like any field.
    const declared = JSON.parse((await cli(['plan', repo({ 'svcform.yaml': 'manage:\n  - kind: AnonymizationField\n', 'a.yaml': field('_id', '  allowed: true\n  anonymized: false\n') }), '--url', emu.url, '--json'])).out);
    assert.ok(declared.changes.some((c: any) => c.name === '_id' && c.action === 'update'), JSON.stringify(declared.changes.filter((c: any) => c.name === '_id')));
  });
});
