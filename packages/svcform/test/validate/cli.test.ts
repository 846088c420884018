import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { checkFixture, expectErrors, expectWarnings, invalid, ROOT, shown, svcform, valid } from './harness.js';
import { TEST_CACHE_HOME } from '../helpers/cache-home.js';

describe('svcform validate: interpolation', () => {
  it('a missing environment variable is an error at the position of its string', async () => {
    await checkFixture({
      fixture: 'interpolation/missing-env.yaml',
      mistake: 'missing env',
      errors: ['8:3 Connector/soc-pagerduty: environment variable SVCFORM_TEST_UNSET_NAME is not set (referenced as ${env:SVCFORM_TEST_UNSET_NAME})'],
    });
  });

  it('a missing ${file:...} (relative to the manifest) is an error at the position of its string', async () => {
    await checkFixture({
      fixture: 'interpolation/missing-file.yaml',
      mistake: 'missing file',
      errors: ['8:3 Connector/soc-chat: ${file:secrets/does-not-exist.txt}: file not found: secrets/does-not-exist.txt'],
    });
  });

  it('${file:...} outside the repository root (/proc/self/environ, ../.. up to /etc/passwd, /etc/shadow, /dev/zero) is an error, and nothing is read', async () => {
    const run = await checkFixture({
      fixture: 'interpolation/file-outside-root.yaml',
      mistake: 'files outside the root',
      errors: [
        '9:3 Rule/exfiltration-attempt: ${file:/proc/self/environ}: /proc/self/environ is outside the repository root',
        '12:3 Rule/exfiltration-attempt: ${file:../../../../../../../../etc/passwd}: ../../../../../../../../etc/passwd is outside the repository root',
        '16:3 Rule/exfiltration-attempt: ${file:/etc/shadow}: /etc/shadow is outside the repository root',
        '17:10 Rule/exfiltration-attempt: ${file:/dev/zero}: /dev/zero is outside the repository root',
      ],
    });
    assert.match(run.stderr, /files may be read only from inside it \(set the root with --root\)/);
  });

  it('an invalid variable name and an empty file path are both reported', async () => {
    await checkFixture({
      fixture: 'interpolation/bad-references.yaml',
      mistake: 'bad references',
      errors: ['14:5 Connector/soc-mail: ${env:1SMTP_USER}: not a valid environment variable name', '15:5 Connector/soc-mail: ${file:}: a path is required'],
    });
  });

  it('a value that failed to interpolate is not judged again by the schema as its placeholder text', async () => {
    const file = valid('interpolated.yaml');
    const run = await svcform(['validate', file]);
    expectErrors(run, file, ['10:5 Connector/soc-pagerduty: environment variable SVCFORM_TEST_PAGING_URL is not set']);
  });

  it('resolves ${env:...} and ${file:...} and keeps $${...} literal: the manifest is valid', async () => {
    const run = await svcform(['validate', valid('interpolated.yaml')], { SVCFORM_TEST_PAGING_URL: 'https://events.paging.example.com/enqueue' });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.lines.length, 0, run.stderr);
  });

  it('secret values that make a field invalid are printed as (sensitive), in text and in JSON', async () => {
    // The method is 3 characters, too short for text redaction: the message itself must hide it.
    const env = { SVCFORM_TEST_HOOK_URL: 'hooks.example.com/secret-path-4411', SVCFORM_TEST_HOOK_METHOD: 'hed' };
    const run = await checkFixture({
      fixture: 'interpolation/secret-makes-field-invalid.yaml',
      mistake: 'secret values',
      env,
      errors: ['10:5 Connector/soc-pagerduty: spec.config.url must be a full URL such as https://example.com/path, not (sensitive)', '11:5 Connector/soc-pagerduty: spec.config.method must be one of: post, put, patch, get, delete, not (sensitive)'],
    });
    assert.doesNotMatch(run.stderr, /secret-path-4411|"hed"|did you mean/);
    const json = await svcform(['validate', '--json', invalid('interpolation/secret-makes-field-invalid.yaml')], env);
    assert.equal(json.code, 1);
    assert.doesNotMatch(json.stdout, /secret-path-4411|"hed"/);
    assert.equal(JSON.parse(json.stdout).diagnostics.filter((d: any) => d.message.endsWith('not (sensitive)')).length, 2);
  });
  it('a secret id with characters JSON escapes (a quote, a backslash) is still never printed, in text or JSON', async () => {
    const env = { SVCFORM_TEST_CONNECTOR_ID: 'soc"chat\\id-3141' };
    const file = valid('secret-reference.yaml');
    const run = await svcform(['validate', file], env);
    assert.equal(run.code, 0, run.stderr);
    expectWarnings(run, file, ['14:7 Rule/ssh-brute-force: spec.actions[0].id names Connector (sensitive), which no manifest declares in space default']);
    const json = await svcform(['validate', '--json', file], env);
    for (const output of [run.stderr, json.stdout]) assert.doesNotMatch(output, /chat|3141/);
    assert.match(JSON.parse(json.stdout).diagnostics[0].message, /names Connector \(sensitive\)/);
  });
});

describe('svcform validate: the repository root files may be read from', () => {
  it('is --root, else the directory of svcform.yaml, else the working directory', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'svcform-root-')));
    try {
      mkdirSync(join(dir, 'repo', 'secrets'), { recursive: true });
      writeFileSync(join(dir, 'repo', 'secrets', 'url.txt'), 'https://chat.example.com/hook\n');
      const manifest = join(dir, 'repo', 'chat.yaml');
      writeFileSync(manifest, 'apiVersion: svcform/v1\nkind: Connector\nmetadata:\n  name: soc-chat\nspec:\n  name: Chat\n  connector_type_id: .chat\n  secrets:\n    webhookUrl: ${file:secrets/url.txt}\n');
      // The working directory (the checkout) is the root: a temporary directory is outside it.
      const outside = await svcform(['validate', manifest]);
      expectErrors(outside, manifest, [`9:5 Connector/soc-chat: \${file:secrets/url.txt}: secrets/url.txt is outside the repository root ${process.cwd()}: files may be read only from inside it (set the root with --root)`]);
      assert.equal((await svcform(['validate', manifest, '--root', join(dir, 'repo')])).code, 0);
      // A root above the repository is fine too; one beside it is not.
      assert.equal((await svcform(['validate', manifest, '--root', dir])).code, 0);
      mkdirSync(join(dir, 'other'));
      assert.equal((await svcform(['validate', manifest, '--root', join(dir, 'other')])).code, 1);
      writeFileSync(join(dir, 'repo', 'svcform.yaml'), 'space: default\n');
      const configured = await svcform(['validate', join(dir, 'repo')]);
      assert.equal(configured.code, 0, configured.stderr);
      const missing = await svcform(['validate', manifest, '--root', join(dir, 'nope')]);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /--root .*nope: no such directory/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('svcform validate: cross-document checks', () => {
  it('the same kind, space and name in two files is an error on the second, naming the first', async () => {
    const dir = invalid('cross/duplicate-across-files');
    const run = await svcform(['validate', dir]);
    expectErrors(run, invalid('cross/duplicate-across-files/b-second.yaml'), [
      `5:3 HostQuerySavedQuery/logged-in-users: duplicate HostQuerySavedQuery "logged-in-users" in space default: also declared at ${invalid('cross/duplicate-across-files/a-first.yaml')}:4:3`,
    ]);
  });

  it('a duplicate within one file, where one document names the default space explicitly', async () => {
    const file = invalid('cross/duplicate-in-file.yaml');
    const run = await svcform(['validate', file]);
    expectErrors(run, file, [`13:3 MaintenanceWindow/Weekly Linux patching: duplicate MaintenanceWindow "Weekly Linux patching" in space default: also declared at ${file}:5:3`]);
  });

  it('one name in two spaces, or for two kinds, is not a duplicate', async () => {
    const run = await svcform(['validate', valid('same-name-elsewhere.yaml')]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.lines.length, 0, run.stderr);
    assert.match(run.stdout, /3 resources in 1 files: valid \(0 errors, 0 warnings\)/);
  });

  it('references to ids no manifest declares are warnings, and the run exits 0', async () => {
    const file = valid('undeclared-references.yaml');
    const run = await svcform(['validate', file]);
    assert.equal(run.code, 0, run.stderr);
    expectWarnings(run, file, [
      '14:7 Rule/ssh-brute-force: spec.actions[0].id names Connector "soc-undeclared-chat", which no manifest declares in space default; it must exist on the server',
      '24:16 PackagePolicy/soc-linux-servers-system: spec.policy_ids[0] names AgentPolicy "soc-linux-servers", which no manifest declares in space default',
    ]);
    assert.match(run.stdout, /2 resources in 1 files: valid \(0 errors, 2 warnings\)/);
  });
});

describe('svcform validate: the command', () => {
  it('examples/ is valid: exit 0, no errors or warnings', async () => {
    const run = await svcform(['validate', `${shown('examples')}/`]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.lines.length, 0, run.stderr);
    assert.match(run.stdout, /\d+ resources in \d+ files: valid \(0 errors, 0 warnings\)/);
  });

  it('reports every error of every file in one run (the whole invalid fixture tree)', async () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir).sort()) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (name.endsWith('.yaml')) files.push(shown(relative(ROOT, full)));
      }
    };
    walk(join(ROOT, 'test/fixtures/invalid'));
    assert.ok(files.length >= 70, `${files.length} fixture files`);
    const run = await svcform(['validate', invalid('')]);
    assert.equal(run.code, 1);
    const reported = new Set(run.lines.filter((d) => !d.warning).map((d) => d.file));
    // a-first.yaml is the first declaration of a duplicate: the error belongs to b-second.yaml.
    const silent = files.filter((f) => !reported.has(f));
    assert.deepEqual(silent, [invalid('cross/duplicate-across-files/a-first.yaml')]);
    assert.ok(run.lines.length > files.length, 'files with several errors report all of them');
  });

  it('--json prints one machine-readable object on stdout', async () => {
    const run = await svcform(['validate', '--json', invalid('rule/ssh.yaml'), valid('undeclared-references.yaml')]);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, '');
    const out = JSON.parse(run.stdout);
    assert.deepEqual(out, {
      valid: false,
      files: 2,
      resources: 2,
      diagnostics: [
        { severity: 'error', file: invalid('rule/ssh.yaml'), line: 12, column: 5, subject: 'Rule/ssh-brute-force', message: 'spec.risk_score must be <= 100' },
        {
          severity: 'warning',
          file: valid('undeclared-references.yaml'),
          line: 14,
          column: 7,
          subject: 'Rule/ssh-brute-force',
          message: 'spec.actions[0].id names Connector "soc-undeclared-chat", which no manifest declares in space default; it must exist on the server',
        },
        {
          severity: 'warning',
          file: valid('undeclared-references.yaml'),
          line: 24,
          column: 16,
          subject: 'PackagePolicy/soc-linux-servers-system',
          message: 'spec.policy_ids[0] names AgentPolicy "soc-linux-servers", which no manifest declares in space default; it must exist on the server',
        },
      ],
    });
  });

  it('--json on a valid repository: valid true, exit 0', async () => {
    const run = await svcform(['validate', '--json', shown('examples')]);
    assert.equal(run.code, 0);
    const out = JSON.parse(run.stdout);
    assert.equal(out.valid, true);
    assert.ok(out.files >= 8, 'one file per kind at least');
    assert.ok(out.resources >= out.files);
    assert.deepEqual(out.diagnostics, []);
  });

  it('--quiet leaves only the diagnostics', async () => {
    const run = await svcform(['validate', '--quiet', invalid('rule/ssh.yaml')]);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, `${invalid('rule/ssh.yaml')}:12:5: Rule/ssh-brute-force: spec.risk_score must be <= 100\n`);
  });
});

/** Runs the compiled CLI as a child process with `input` on stdin. */
function spawnCli(args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'svcform-stdin-'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist/src/cli/main.js'), ...args], { cwd, env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: TEST_CACHE_HOME } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      rmSync(cwd, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

describe('svcform validate - (standard input)', () => {
  const manifest = (riskScore: number) =>
    ['apiVersion: svcform/v1', 'kind: Rule', 'metadata:', '  name: ssh-brute-force', 'spec:', '  type: query', '  name: SSH brute force', '  description: Many failed SSH logins.', '  severity: high', `  risk_score: ${riskScore}`, "  query: 'event.category:authentication'", ''].join('\n');

  it('reads manifests from stdin, errors named <stdin>', async () => {
    const run = await spawnCli(['validate', '-'], `${manifest(73)}---\n${manifest(130)}`);
    assert.equal(run.code, 1, run.stderr);
    // Both documents have one identity: the second is a schema error, so only the schema speaks.
    assert.match(run.stderr, /^<stdin>:22:3: Rule\/ssh-brute-force: spec\.risk_score must be <= 100$/m);
    assert.match(run.stderr, /1 resources in 1 files: invalid \(1 errors, 0 warnings\)/);
  });

  it('a valid manifest on stdin exits 0', async () => {
    const run = await spawnCli(['validate', '-'], manifest(73));
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /1 resources in 1 files: valid \(0 errors, 0 warnings\)/);
  });
});
