import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';

/** examples/ without its secret files: what a pull request from a fork sees in CI. */
function withoutSecrets(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-fork-'));
  cpSync('examples', dir, { recursive: true });
  rmSync(join(dir, 'connectors', 'secrets'), { recursive: true });
  return dir;
}

describe('validate --offline-secrets (issue 12, item 7)', () => {
  it('without the flag a missing secret is an error, and no false "not declared" warning follows it', async () => {
    const run = await cli(['validate', withoutSecrets()]);
    assert.equal(run.code, 1);
    assert.match(run.err, /file not found: secrets\/chat-webhook-url\.txt/);
    assert.doesNotMatch(run.err, /names Connector "soc-chat", which no manifest declares/);
  });

  it('with it, missing secrets are warnings naming the variable or file, and everything else is still checked', async () => {
    const run = await cli(['validate', withoutSecrets(), '--offline-secrets']);
    assert.equal(run.code, 0, run.err);
    assert.match(run.err, /warning.*file not found: secrets\/chat-webhook-url\.txt; checked without it \(--offline-secrets\)/i);
    assert.doesNotMatch(run.err, /which no manifest declares/);
    assert.match(run.out, /valid/);
  });

  it('files outside the repository root stay errors, flag or not', async () => {
    const dir = withoutSecrets();
    const run = await cli(['validate', dir, '--offline-secrets', '--root', join(dir, 'rules')]);
    assert.equal(run.code, 1);
  });
});
