import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expectWarnings, svcform } from './harness.js';
import { repo } from '../helpers/repo.js';

const pinned = (version: string) => ['apiVersion: svcform/v1', 'kind: IntegrationPackage', 'metadata: {name: system}', 'spec:', `  version: ${version}`, ''].join('\n');
const AGENT_POLICY = ['apiVersion: svcform/v1', 'kind: AgentPolicy', 'metadata: {name: web}', 'spec: {name: Web, namespace: default}', ''].join('\n');
const policy = (version: string) => [
  'apiVersion: svcform/v1',
  'kind: PackagePolicy',
  'metadata: {name: web-system}',
  'spec:',
  '  name: web system',
  '  policy_ids: [web]',
  `  package: {name: system, version: ${version}}`,
  '',
].join('\n');

/**
 * Creating a package policy installs its package version when an older one is installed (K-FLEET
 * services/package_policy.ts create -> services/epm/packages/install.ts ensureInstalledPackage,
 * isPackageVersionOrLaterInstalled): a policy newer than the version an IntegrationPackage pins
 * moves the installation past the pin, and the next apply downgrades it under the policy.
 */
describe('svcform validate: a package policy against the version its IntegrationPackage pins', () => {
  it('warns at the policy\'s package version when it is newer than the pin', async () => {
    const dir = repo({ 'agent.yaml': AGENT_POLICY, 'package.yaml': pinned('1.58.0'), 'policy.yaml': policy('1.60.0') });
    const run = await svcform(['validate', dir]);
    assert.equal(run.code, 0, run.stderr);
    expectWarnings(run, join(dir, 'policy.yaml'), [
      '7:27 PackagePolicy/web-system: package system 1.60.0 is newer than the 1.58.0 its IntegrationPackage pins: creating this policy makes the server install 1.60.0, and the next apply would downgrade it under the policy; pin the same version in both',
    ]);
  });

  it('says nothing for the same version, an older one, or no IntegrationPackage', async () => {
    const cases: Array<Record<string, string>> = [
      { 'package.yaml': pinned('1.60.0'), 'policy.yaml': policy('1.60.0') },
      { 'package.yaml': pinned('1.60.0'), 'policy.yaml': policy('1.58.0') },
      { 'policy.yaml': policy('1.60.0') },
    ];
    for (const files of cases) {
      const run = await svcform(['validate', repo({ 'agent.yaml': AGENT_POLICY, ...files })]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.lines.length, 0, `${JSON.stringify(files)}: ${run.stdout}${run.stderr}`);
    }
  });
});
