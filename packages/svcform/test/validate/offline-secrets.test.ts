import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';

/**
 * examples/ without its secret files, and with the chat connector's name (a compared field, whose
 * value plan needs) taken from a variable that is not set: what a pull request from a fork sees in CI.
 */
function withoutSecrets(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-fork-'));
  cpSync('examples', dir, { recursive: true });
  rmSync(join(dir, 'connectors', 'secrets'), { recursive: true });
  const chat = join(dir, 'connectors', 'soc-chat.yaml');
  writeFileSync(chat, readFileSync(chat, 'utf8').replace('name: SOC alerts channel', 'name: ${env:SOC_CHAT_NAME}'));
  return dir;
}

describe('validate --offline-secrets (issue 12, item 7)', () => {
  it('without the flag a missing value of a compared field is an error, and no false "not declared" warning follows it', async () => {
    const run = await cli(['validate', withoutSecrets()]);
    assert.equal(run.code, 1);
    assert.match(run.err, /soc-chat\.yaml:11:3: Connector\/soc-chat: environment variable SOC_CHAT_NAME is not set/);
    // The connectors' secrets are write-only: their missing files are not findings (issue 30).
    assert.doesNotMatch(run.err, /file not found/);
    assert.doesNotMatch(run.err, /names Connector "soc-chat", which no manifest declares/);
  });

  it('with it, missing secrets are warnings naming the variable or file, and everything else is still checked', async () => {
    const run = await cli(['validate', withoutSecrets(), '--offline-secrets']);
    assert.equal(run.code, 0, run.err);
    assert.match(run.err, /warning: Connector\/soc-chat: environment variable SOC_CHAT_NAME is not set \(referenced as \$\{env:SOC_CHAT_NAME\}\); checked without it \(--offline-secrets\)/);
    assert.doesNotMatch(run.err, /which no manifest declares/);
    assert.match(run.out, /valid/);
  });

  it('files outside the repository root stay errors, flag or not', async () => {
    const dir = withoutSecrets();
    const run = await cli(['validate', dir, '--offline-secrets', '--root', join(dir, 'rules')]);
    assert.equal(run.code, 1);
  });
});
