import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expectWarnings, svcform } from './harness.js';
import { repo } from '../helpers/repo.js';

const POLICY = [
  'apiVersion: svcform/v1',
  'kind: AgentPolicy',
  'metadata: {name: gateways}',
  'spec:',
  '  name: Gateways',
  '  namespace: default',
  '  has_agent_version_conditions: true',
  '  min_agent_version: 9.3.0',
  '  package_agent_version_conditions:',
  '    - {packageName: doors, versionCondition: ^9.3.0}',
  '',
].join('\n');

/**
 * service-api.md lists the three as create body fields, so the schema takes them; but the server
 * works them out from the policy's package policies whatever the body says (K-FLEET
 * x-pack/platform/plugins/shared/fleet/server/services/agent_policy.ts update() and bumpRevision(),
 * computeMinAgentVersionData), so svcform never sends them and says so at the field.
 */
describe('svcform validate: the agent version fields of an AgentPolicy are the server\'s', () => {
  it('warns at each one that the server computes it and svcform does not send it; the manifest stays valid', async () => {
    const file = join(repo({ 'policy.yaml': POLICY }), 'policy.yaml');
    const run = await svcform(['validate', file]);
    assert.equal(run.code, 0, run.stderr);
    const message = "is computed by the server from the policy's integrations (their packages' agent version conditions), so svcform does not send it: remove it";
    expectWarnings(run, file, [
      `7:3 AgentPolicy/gateways: spec.has_agent_version_conditions ${message}`,
      `8:3 AgentPolicy/gateways: spec.min_agent_version ${message}`,
      `9:3 AgentPolicy/gateways: spec.package_agent_version_conditions ${message}`,
    ]);
    assert.match(run.stdout, /valid \(0 errors, 3 warnings\)/);
  });

  it('gives no warning for a policy without them', async () => {
    const file = join(repo({ 'policy.yaml': POLICY.split('\n').slice(0, 6).join('\n') + '\n' }), 'policy.yaml');
    const run = await svcform(['validate', file]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.lines.length, 0, run.stderr);
  });
});
