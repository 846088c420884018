import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

/**
 * The Node.js versions svcform names, in one agreement: `engines` says which it supports, .ci/run
 * tests each LTS line from there up (besides the machine's own Node), and the Docker image and the
 * CI kit's workflows run the newest of them, the active LTS (Node's even majors enter Active LTS in
 * October of their year: 26 in October 2026).
 */
/** The repository root: CI, the Dockerfile and the engines range are the repository's. */
const ROOT = resolve('../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

const enginesMajor = () => {
  const range = JSON.parse(read('packages/svcform/package.json')).engines.node as string;
  const m = /^>=(\d+)\.\d+\.\d+$/.exec(range);
  assert.ok(m, `engines.node is a lower bound: ${range}`);
  return Number(m[1]);
};

/** The exact versions .ci/run fetches (its NODE_VERSIONS). */
const ciVersions = () => {
  const m = /^NODE_VERSIONS=\(([^)]*)\)$/m.exec(read('.ci/run'));
  assert.ok(m, '.ci/run sets NODE_VERSIONS=(...)');
  const versions = m[1].trim().split(/\s+/);
  for (const v of versions) assert.match(v, /^\d+\.\d+\.\d+$/, 'exact versions, so a CI run is repeatable');
  return versions;
};
const major = (version: string) => Number(version.split('.')[0]);

const dockerMajors = () => [...read('Dockerfile').matchAll(/^FROM node:(\d+)-\S+/gm)].map((m) => Number(m[1]));

const WORKFLOWS = 'packages/svcform/examples/ci/github-actions/.github/workflows';
const workflowMajors = () =>
  readdirSync(join(ROOT, WORKFLOWS)).flatMap((f) =>
    Object.values(parse(read(join(WORKFLOWS, f))).jobs as Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>)
      .flatMap((job) => job.steps)
      .filter((s) => s.uses?.startsWith('actions/setup-node@'))
      .map((s) => ({ file: f, version: s.with?.['node-version'] })),
  );

describe('Node.js versions', () => {
  it('supports Node 22 and later (20 reached its end of life in April 2026)', () => {
    assert.equal(enginesMajor(), 22);
  });

  it('.ci/run is valid bash', () => {
    const checked = spawnSync('bash', ['-n', join(ROOT, '.ci/run')], { encoding: 'utf8' });
    assert.equal(checked.status, 0, checked.stderr);
  });

  it('.ci/run tests every LTS line from the lowest supported up to the newest, each once', () => {
    const majors = ciVersions().map(major);
    const expected: number[] = [];
    for (let m = enginesMajor(); m <= Math.max(...majors); m += 2) expected.push(m);
    assert.deepEqual(majors, expected);
    assert.deepEqual(expected, [22, 24, 26]);
  });

  it('the Docker image runs the active LTS, the newest major .ci/run tests', () => {
    const majors = dockerMajors();
    assert.equal(majors.length, 2, 'both stages name their Node');
    for (const m of majors) assert.equal(m, Math.max(...ciVersions().map(major)));
  });

  it("the CI kit's workflows set up the same major", () => {
    const found = workflowMajors();
    assert.equal(found.length, 3, 'plan, apply and drift each set up Node');
    for (const { file, version } of found) assert.equal(version, Math.max(...ciVersions().map(major)), file);
  });
});
