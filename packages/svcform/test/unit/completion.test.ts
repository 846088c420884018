import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';

const hasShell = (name: string) => spawnSync(name, ['-c', 'exit 0']).status === 0;

async function script(shell: string): Promise<string> {
  const run = await cli(['completion', shell]);
  assert.equal(run.code, 0, run.err);
  assert.equal(run.err, '');
  return run.out + '\n';
}

/** Completes `words` (the last one being typed) with the generated bash function; returns COMPREPLY. */
function bashComplete(code: string, words: string[], cwd?: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'svcform-completion-'));
  const file = join(dir, 'svcform.bash');
  writeFileSync(file, code);
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const run = spawnSync('bash', ['-c', `source '${file}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _svcform; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8', cwd });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, '');
  return run.stdout.split('\n').filter(Boolean);
}

describe('svcform completion', () => {
  it('bash: the script is valid bash (bash -n) and registers the function for svcform', async () => {
    const code = await script('bash');
    const dir = mkdtempSync(join(tmpdir(), 'svcform-completion-'));
    writeFileSync(join(dir, 'svcform.bash'), code);
    const syntax = spawnSync('bash', ['-n', join(dir, 'svcform.bash')], { encoding: 'utf8' });
    assert.equal(syntax.status, 0, syntax.stderr);
    const registered = spawnSync('bash', ['-c', `source '${join(dir, 'svcform.bash')}'; complete -p svcform`], { encoding: 'utf8' });
    assert.equal(registered.stdout.trim(), 'complete -F _svcform svcform');
  });

  it('bash: completes commands, each command its own flags, choices and kinds, from the program itself', async () => {
    const code = await script('bash');
    assert.deepEqual(bashComplete(code, ['svcform', '']), ['validate', 'test', 'plan', 'apply', 'drift', 'promote', 'reconcile', 'coverage', 'show', 'init', 'export', 'schemas', 'completion', 'unlock', 'emulator']);
    assert.deepEqual(bashComplete(code, ['svcform', 'pl']), ['plan']);
    assert.deepEqual(bashComplete(code, ['svcform', 'plan', '--detailed']), ['--detailed-exitcode']);
    assert.deepEqual(bashComplete(code, ['svcform', 'plan', '--format', '']), ['text', 'json', 'markdown', 'html']);
    assert.deepEqual(bashComplete(code, ['svcform', 'export', '--layout', '']), ['per-kind', 'per-object']);
    assert.deepEqual(bashComplete(code, ['svcform', 'reconcile', '--policy', '']), ['report', 'heal-drift', 'apply']);
    assert.deepEqual(bashComplete(code, ['svcform', 'export', '--kind', 'Host']), ['HostQueryPack', 'HostQuerySavedQuery']);
    assert.deepEqual(bashComplete(code, ['svcform', 'completion', '']), ['bash', 'zsh', 'fish']);
    assert.deepEqual(bashComplete(code, ['svcform', 'init', '--from']), ['--from-server']);
    assert.deepEqual(bashComplete(code, ['svcform', 'apply', '--url', '']), [], 'a URL is not a file name');
    // Flags of one command are not offered for another.
    assert.deepEqual(bashComplete(code, ['svcform', 'validate', '--plan']), []);
    assert.deepEqual(bashComplete(code, ['svcform', 'apply', '--plan']), ['--plan']);
    for (const cmd of ['validate', 'test', 'plan', 'apply', 'drift', 'promote', 'reconcile', 'coverage', 'show', 'init', 'export', 'schemas', 'completion', 'unlock', 'emulator']) {
      assert.deepEqual(bashComplete(code, ['svcform', cmd, '--qu']), ['--quiet'], cmd);
    }
  });

  it('bash: arguments and file flags complete file names', async () => {
    const code = await script('bash');
    const cwd = mkdtempSync(join(tmpdir(), 'svcform-completion-files-'));
    mkdirSync(join(cwd, 'manifests'));
    writeFileSync(join(cwd, 'manifest.yaml'), '');
    assert.deepEqual(bashComplete(code, ['svcform', 'validate', 'man'], cwd).sort(), ['manifest.yaml', 'manifests']);
    assert.deepEqual(bashComplete(code, ['svcform', 'plan', '--config', 'manifest.'], cwd), ['manifest.yaml']);
    assert.deepEqual(bashComplete(code, ['svcform', 'export', '--out', 'man'], cwd), ['manifests'], '--out <dir> offers directories only');
    assert.deepEqual(bashComplete(code, ['svcform', 'init', 'man'], cwd), ['manifests'], 'init [dir] offers directories only');
  });

  for (const shell of ['zsh', 'fish']) {
    it(`${shell}: the script is valid ${shell} (${shell} -n)`, { skip: hasShell(shell) ? false : `${shell} is not installed` }, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svcform-completion-'));
      const file = join(dir, `svcform.${shell}`);
      writeFileSync(file, await script(shell));
      const syntax = spawnSync(shell, ['-n', file], { encoding: 'utf8' });
      assert.equal(syntax.status, 0, syntax.stderr);
    });
  }

  it('fish: completes flags with their choices and descriptions', { skip: hasShell('fish') ? false : 'fish is not installed' }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcform-completion-'));
    const file = join(dir, 'svcform.fish');
    writeFileSync(file, await script('fish'));
    const run = spawnSync('fish', ['-c', `source '${file}'; complete -C 'svcform plan --format '`], { encoding: 'utf8' });
    assert.deepEqual(run.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0]), ['html', 'json', 'markdown', 'text']);
  });

  it('an unknown shell is a usage error naming the choices', async () => {
    const run = await cli(['completion', 'powershell']);
    assert.equal(run.code, 1);
    assert.match(run.err, /Allowed choices are bash, zsh, fish/);
  });

  it('--verbose says on stderr how to install the script; stdout is the script alone', async () => {
    const run = await cli(['completion', 'bash', '--verbose']);
    assert.equal(run.code, 0);
    assert.match(run.out, /^# bash completion for svcform/);
    assert.match(run.err, /source <\(svcform completion bash\)/);
  });
});
