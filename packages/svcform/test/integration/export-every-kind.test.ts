import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { knownKinds } from '../../src/kinds/registry.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';
import { expectExportPlansEmpty, readTree } from '../helpers/export-files.js';
import { ok, seedDetectionContent, seedEveryKind, seedRealRouteWidth } from '../helpers/export-seed.js';

/**
 * Every kind, seeded through the API with what the real routes take (wire-facts §16), exported in
 * one run: the export validates and plans with nothing to change.
 */
describe('export of every kind, as wide as the real routes: validate, then plan empty', () => {
  let emu: RunningEmulator;
  let root: string;
  before(async () => {
    emu = await emulator({ deployment: 'cloud' });
    await seedEveryKind(emu);
    await ok(call(emu, 'PUT', '/api/detection_engine/rules/prepackaged'), 'prebuilt rules');
    await seedDetectionContent(emu);
    await seedRealRouteWidth(emu);
    root = mkdtempSync(join(tmpdir(), 'svcform-export-every-kind-'));
  });
  after(async () => {
    await emu.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('writes every kind; validate exits 0; plan --detailed-exitcode exits 0 with every exported object unchanged', async () => {
    const dir = join(root, 'out');
    const exported = await cli(['export', '--out', dir, '--url', emu.url]);
    assert.equal(exported.code, 0, exported.err);
    // The one object whose secret keys svcform cannot know is said so, by name.
    assert.match(exported.err, /warning: Connector\/soc-tickets \(space default\): svcform does not know the secret keys of connector type \.issue-tracker/);
    const docs = [...readTree(dir).entries()].filter(([f]) => f.endsWith('.yaml')).flatMap(([f]) => parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS()));
    assert.deepEqual([...new Set(docs.map((d) => d.kind))].sort(), [...knownKinds()].sort(), 'every kind exported');
    const named = (kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata.name === name)?.spec;
    assert.deepEqual(named('Connector', 'soc-paging').secrets, { routingKey: '${env:SVCFORM_CONNECTOR_SOC_PAGING_ROUTINGKEY}' });
    assert.deepEqual(Object.keys(named('Connector', 'soc-tickets').secrets), ['REPLACE_WITH_SECRET_KEY']);
    assert.deepEqual(named('HostQueryPack', 'uptime-check').queries, { uptime: { query: 'SELECT * FROM uptime;' } });
    assert.equal(named('ExceptionList', 'soc-endpoint-exceptions').type, 'endpoint');
    assert.deepEqual(named('AttackDiscoverySchedule', 'Daily discovery').actions[0].frequency, { summary: true, notify_when: 'onActiveAlert', throttle: null });
    await expectExportPlansEmpty(dir, emu.url, docs.length);
  });
});
