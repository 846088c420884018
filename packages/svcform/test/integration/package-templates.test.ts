import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call, emulator } from '@svcform/emulator/testing.js';
import { cli, shown } from '../helpers/cli.js';
import { repo } from '../helpers/repo.js';
import { readTree } from '../helpers/export-files.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A policy template that names its data streams (gcp's audit and firewall templates each name
 * one) collects only those: the server expands each template's input with the streams of its
 * own data streams (fleet common/services/package_to_package_policy.ts, packageToPackagePolicyInputs
 * and getStreamsForInputType) and refuses a stream of another template. svcform and the emulator
 * had put every data stream under every template, so a gcp, aws or azure policy planned a change
 * on every run against a real server.
 */

const CONFIG = 'manage:\n  - kind: AgentPolicy\n  - kind: PackagePolicy\n';
const AGENT_POLICY = ['apiVersion: svcform/v1', 'kind: AgentPolicy', 'metadata: {name: soc-cloud}', 'spec:', '  name: SOC cloud', '  namespace: default', ''].join('\n');
const gcpPolicy = (inputs: string[]) => ['apiVersion: svcform/v1', 'kind: PackagePolicy', 'metadata: {name: soc-gcp}', 'spec:', '  name: SOC GCP', '  policy_ids: [soc-cloud]',
  '  package: {name: gcp, version: 2.45.2}', '  vars: {project_id: soc-project}', '  inputs:', ...inputs, ''].join('\n');

describe('package policies of a package whose templates name their data streams', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('hold each template\'s own streams, apply, and plan nothing afterwards', async () => {
    const dir = repo({ 'svcform.yaml': CONFIG, 'agent.yaml': AGENT_POLICY, 'gcp.yaml': gcpPolicy(['    audit-gcp-pubsub:', '      streams:', '        gcp.audit: {vars: {topic: soc-audit}}']) });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, shown(applied));
    const stored = await call(emu, 'GET', '/api/fleet/package_policies/soc-gcp');
    const streamsOf = (template: string) => stored.body.item.inputs.find((i: any) => i.policy_template === template).streams.map((s: any) => s.data_stream.dataset);
    assert.deepEqual([streamsOf('audit'), streamsOf('firewall')], [['gcp.audit'], ['gcp.firewall']]);
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
  });

  it('a stream of another template is refused by the server: 400 Stream not found', async () => {
    const dir = repo({ 'svcform.yaml': CONFIG, 'agent.yaml': AGENT_POLICY, 'gcp.yaml': gcpPolicy(['    audit-gcp-pubsub:', '      streams:', '        gcp.firewall: {vars: {topic: soc-fw}}']) });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 1, shown(applied));
    assert.match(applied.out + applied.err, /Stream not found audit-gcp-pubsub: gcp\.firewall/);
  });
});

describe('package policies of an input package, whose info answers one input per template', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('plan nothing after apply, and export its secret var as a placeholder (fleet common/services policy_template.ts: the template is normalized into an input and a data stream)', async () => {
    const pubsub = ['apiVersion: svcform/v1', 'kind: PackagePolicy', 'metadata: {name: soc-pubsub}', 'spec:', '  name: SOC Pub/Sub', '  policy_ids: [soc-cloud]',
      '  package: {name: gcp_pubsub, version: 1.3.1}', '  inputs:', '    gcp_pubsub-gcp-pubsub:', '      streams:', '        gcp_pubsub.gcp_pubsub:',
      '          vars: {project_id: soc, topic: soc-logs, subscription_name: soc-sub, credentials_json: "${env:SOC_PUBSUB_CREDENTIALS}"}', ''].join('\n');
    const dir = repo({ 'svcform.yaml': CONFIG, 'agent.yaml': AGENT_POLICY, 'pubsub.yaml': pubsub });
    const env = { SOC_PUBSUB_CREDENTIALS: 'CREDENTIALS-4711' };
    const applied = await cli(['apply', dir, '--url', emu.url], env);
    assert.equal(applied.code, 0, shown(applied));
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'], env);
    assert.equal(planned.code, 0, shown(planned));
    const out = mkdtempSync(join(tmpdir(), 'svcform-pubsub-export-'));
    const exported = await cli(['export', '--kind', 'PackagePolicy', '--out', out, '--url', emu.url]);
    assert.equal(exported.code, 0, shown(exported));
    const text = [...readTree(out).values()].join('\n');
    assert.match(text, /soc-pubsub/);
    assert.doesNotMatch(text, /CREDENTIALS-4711/);
    assert.match(text, /credentials_json: \$\{env:/);
  });
});

describe('an input named with every stream switched off', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('is stored disabled, and plans nothing afterwards (package policy routes alignInputsAndStreams)', async () => {
    const logs = ['apiVersion: svcform/v1', 'kind: PackagePolicy', 'metadata: {name: soc-logs}', 'spec:', '  name: SOC logs', '  policy_ids: [soc-cloud]',
      '  package: {name: log, version: 2.4.3}', '  inputs:', '    logs-logfile:', '      streams:', '        log.logs: {enabled: false, vars: {paths: [/var/log/soc.log]}}', ''].join('\n');
    const dir = repo({ 'svcform.yaml': CONFIG, 'agent.yaml': AGENT_POLICY, 'logs.yaml': logs });
    const applied = await cli(['apply', dir, '--url', emu.url]);
    assert.equal(applied.code, 0, shown(applied));
    const stored = await call(emu, 'GET', '/api/fleet/package_policies/soc-logs');
    assert.equal(stored.body.item.inputs[0].enabled, false);
    const planned = await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode']);
    assert.equal(planned.code, 0, shown(planned));
  });
});
