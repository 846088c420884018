import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

const RULES = 2000;
const CONNECTORS = 200;
const SAVED_QUERIES = 150;
const WINDOWS = 100;
const POLICIES = 50;

function doc(kind: string, name: string, spec: string): string {
  return `apiVersion: svcform/v1\nkind: ${kind}\nmetadata:\n  name: ${name}\nspec:\n${spec}`;
}

/** 2,000 rules and 500 other resources, written the way users write them. */
function writeWorkload(dir: string): void {
  mkdirSync(join(dir, 'rules'));
  for (let f = 0; f < 20; f++) {
    const docs: string[] = [];
    for (let i = f * 100; i < (f + 1) * 100; i++) {
      docs.push(
        doc(
          'Rule',
          `rule-${i}`,
          `  type: query\n  name: Rule ${i}\n  description: Generated rule ${i}\n  severity: ${['low', 'medium', 'high', 'critical'][i % 4]}\n  risk_score: ${i % 100}\n  query: 'host.name:h${i}'\n  tags: [managed-by:svcform, batch-${f}]\n  actions:\n    - id: conn-${i % CONNECTORS}\n      group: default\n      params: {message: 'rule ${i}'}\n      frequency: {summary: true, notifyWhen: onActiveAlert, throttle: null}\n`,
        ),
      );
    }
    writeFileSync(join(dir, 'rules', `rules-${f}.yaml`), docs.join('---\n'));
  }
  const others: string[] = [];
  for (let i = 0; i < CONNECTORS; i++) others.push(doc('Connector', `conn-${i}`, `  name: Connector ${i}\n  connector_type_id: .server-log\n`));
  for (let i = 0; i < SAVED_QUERIES; i++) others.push(doc('HostQuerySavedQuery', `sq-${i}`, `  query: select * from uptime where ${i} = ${i}\n  interval: 3600\n`));
  for (let i = 0; i < WINDOWS; i++) others.push(doc('MaintenanceWindow', `window ${i}`, `  schedule:\n    custom:\n      start: '2030-01-${String((i % 28) + 1).padStart(2, '0')}T02:00:00.000Z'\n      duration: 2h\n`));
  for (let i = 0; i < POLICIES; i++) others.push(doc('AgentPolicy', `policy-${i}`, `  name: Policy ${i}\n  namespace: default\n`));
  writeFileSync(join(dir, 'others.yaml'), others.join('---\n'));
}

describe('planning at scale', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    emu = await emulator();
    dir = mkdtempSync(join(tmpdir(), 'svcform-scale-'));
    writeWorkload(dir);
    const applied = await cli(['apply', dir, '--url', emu.url, '--quiet', '--concurrency', '16']);
    assert.equal(applied.code, 0, applied.out + applied.err);
  });
  after(() => emu.stop());

  it('plans 2,000 rules and 500 other resources with ceil(N/page) list requests per (kind, space) and no GET per object', async () => {
    emu.log.clear();
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, planned.out + planned.err);
    assert.match(planned.out, new RegExp(`Plan: 0 to create, 0 to update, 0 to delete, ${RULES + CONNECTORS + SAVED_QUERIES + WINDOWS + POLICIES} unchanged`));
    const counts = new Map<string, number>();
    for (const r of emu.log.all()) counts.set(`${r.method} ${r.route}`, (counts.get(`${r.method} ${r.route}`) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries([...counts].sort()), {
      'GET /api/actions/connectors': 1, // bare array: one request
      'GET /api/actions/connector_types': 1, // what the space offers: one request per space
      // The manifests' 2,000 rules are expected: pages of 250 (pageSizeFor), all asked for at once.
      'GET /api/detection_engine/rules/_find': Math.ceil(RULES / 250),
      'GET /api/fleet/agent_policies': Math.ceil(POLICIES / 1000),
      'GET /api/hostquery/saved_queries': Math.ceil(SAVED_QUERIES / 1000),
      'GET /api/maintenance_window/_find': Math.ceil(WINDOWS / 100),
      'GET /api/spaces/space/:id': 1, // validate_spaces, once per space
    });
  });
});
