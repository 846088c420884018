import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkFixture, expectErrors, shown, svcform, type FixtureCase } from './harness.js';
import { knownKinds } from '../../src/kinds/registry.js';

// Every registered kind, in registry order (the messages list them so).
const KINDS = knownKinds().join(', ');

/** Mistakes in the envelope every kind shares. */
const ENVELOPE: FixtureCase[] = [
  { fixture: 'envelope/wrong-api-version.yaml', mistake: 'apiVersion svcform/v2', errors: ['2:1 Connector/soc-server-log: apiVersion must be svcform/v1, not "svcform/v2"'] },
  { fixture: 'envelope/missing-api-version.yaml', mistake: 'no apiVersion (reported once)', errors: ['2:1 Connector/soc-server-log: apiVersion is required (svcform/v1)'] },
  { fixture: 'envelope/unknown-kind.yaml', mistake: 'a misspelt kind, with a suggestion', errors: [`3:1 unknown kind "MaintenanceWindows" (did you mean MaintenanceWindow?); known kinds: ${KINDS}`] },
  { fixture: 'envelope/lowercase-kind.yaml', mistake: 'a lower-case kind', errors: ['2:1 unknown kind "rule" (did you mean Rule?)'] },
  { fixture: 'envelope/missing-kind.yaml', mistake: 'no kind', errors: [`1:1 kind is required: one of ${KINDS}`] },
  { fixture: 'envelope/kind-not-a-string.yaml', mistake: 'a number as kind', errors: [`2:1 kind must be one of ${KINDS}, not 5`] },
  { fixture: 'envelope/spec-not-a-mapping.yaml', mistake: 'an empty spec (null)', errors: ['6:1 Rule/ssh-brute-force: spec must be a mapping, not null'] },
  { fixture: 'envelope/missing-name.yaml', mistake: 'no metadata.name', errors: ['4:1 ValueList: metadata.name is required'] },
  {
    fixture: 'envelope/unknown-top-level-key.yaml',
    mistake: '`specs` for `spec`',
    errors: ['2:1 AgentPolicy/soc-linux-servers: spec is required', '6:1 AgentPolicy/soc-linux-servers: specs is not a known field (did you mean spec?)'],
  },
  {
    fixture: 'envelope/invalid-space.yaml',
    mistake: 'a space id with capitals and a space',
    errors: ['6:3 HostQuerySavedQuery/logged-in-users: metadata.space must be lower-case letters, digits, _ and - only, not "SOC Team"'],
  },
  {
    fixture: 'envelope/metadata-mistakes.yaml',
    mistake: 'a numeric label, an ignore entry that is not a JSON Pointer and an unknown metadata field',
    errors: [
      '8:5 Connector/soc-server-log: metadata.labels.tier must be a string, not 1',
      '9:12 Connector/soc-server-log: metadata.ignore[0] must be a JSON Pointer into the manifest starting with /spec/ (e.g. /spec/enabled), not "spec/name"',
      '10:3 Connector/soc-server-log: metadata.owner is not a known field (known fields: name, space, spaces, spaceOverrides, labels, ignore)',
    ],
  },
];

/** Files that are not valid YAML, or not manifest-shaped YAML. */
const YAML: FixtureCase[] = [
  { fixture: 'yaml/malformed.yaml', mistake: 'an unclosed quote, reported where the string starts', errors: ['6:9 invalid YAML: the quoted string that starts here is never closed (it runs on to line 8)'] },
  { fixture: 'yaml/bad-indentation.yaml', mistake: 'a key indented too far, reported on its own line', errors: ['7:4 invalid YAML: this line is indented more than the keys above it'] },
  { fixture: 'yaml/duplicate-key.yaml', mistake: 'a key repeated in one mapping', errors: ['8:3 invalid YAML: duplicate key "name" (first on line 6)'] },
  { fixture: 'yaml/non-mapping.yaml', mistake: 'a list document', errors: ['2:1 a manifest document must be a mapping (apiVersion, kind, metadata, spec), not a list'] },
  { fixture: 'yaml/scalar-document.yaml', mistake: 'a text document after a valid one', errors: ['9:1 a manifest document must be a mapping (apiVersion, kind, metadata, spec), not a string'] },
  { fixture: 'yaml/alias-bomb.yaml', mistake: 'an alias bomb, refused instead of expanded', errors: ['2:1 invalid YAML: anchors and aliases expand too far (limit 100)'] },
  {
    fixture: 'yaml/second-document-broken.yaml',
    mistake: 'an unclosed flow sequence in the second document, reported where it starts',
    errors: ['16:13 invalid YAML: the flow sequence that starts here is not closed with ]'],
  },
];

describe('svcform validate: envelope mistakes', () => {
  for (const c of ENVELOPE) {
    it(`${c.fixture}: ${c.mistake}`, async () => {
      const run = await checkFixture(c);
      if (c.fixture.includes('kind')) {
        // Without a known kind there is no Kind/name subject worth printing.
        assert.ok(run.lines.every((d) => /^(unknown kind|kind is required|kind must be)/.test(d.text)), run.stderr);
      }
    });
  }
});

describe('svcform validate: YAML that cannot be a manifest', () => {
  for (const c of YAML) {
    it(`${c.fixture}: ${c.mistake}`, async () => {
      await checkFixture(c);
    });
  }
});

describe('svcform validate: input that is not a manifest file never crashes', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'svcform-validate-robust-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a 50 MB file is refused by size, before it is read', async () => {
    const file = join(dir, 'huge.yaml');
    writeFileSync(file, Buffer.alloc(50 * 1024 * 1024, '# padding line of a generated file\n'));
    const started = Date.now();
    const run = await svcform(['validate', file]);
    expectErrors(run, shown(file), ['1:1 file is 50.0 MB, over the 32 MB limit for one manifest file; split it into several files']);
    assert.ok(Date.now() - started < 5000, 'the size check answers without parsing 50 MB');
  });

  it('a binary file (NUL bytes) is not parsed as YAML', async () => {
    const file = join(dir, 'logo.yaml');
    writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    const run = await svcform(['validate', file]);
    expectErrors(run, shown(file), ['1:1 not a text file (it contains NUL bytes); manifests are YAML text']);
  });

  it('a file that is not UTF-8 (Latin-1 text) is refused rather than read with replacement characters', async () => {
    const file = join(dir, 'latin1.yaml');
    writeFileSync(file, Buffer.from('apiVersion: svcform/v1\nkind: Rule\nmetadata:\n  name: caf\xe9\n', 'latin1'));
    const run = await svcform(['validate', file]);
    expectErrors(run, shown(file), ['1:1 not a text file (it is not valid UTF-8)']);
  });

  it('nesting deep enough to exhaust the parser is an error, not a crash', async () => {
    const file = join(dir, 'deep.yaml');
    writeFileSync(file, `apiVersion: svcform/v1\nkind: Rule\nmetadata: {name: deep}\nspec:\n  meta: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`);
    const run = await svcform(['validate', file]);
    assert.equal(run.code, 1);
    assert.equal(run.lines.length, 1, run.stderr);
    assert.equal(run.lines[0].file, shown(file));
    assert.match(run.lines[0].text, /^invalid YAML: the document nests too deeply to be read$/);
  });

  it('the nesting error points at the document, wherever the stack ran out (the same position in any caller)', async () => {
    const file = join(dir, 'deep-position.yaml');
    writeFileSync(file, `# deep\napiVersion: svcform/v1\nkind: Rule\nmetadata: {name: deep}\nspec:\n  meta: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`);
    expectErrors(await svcform(['validate', file]), shown(file), ['2:1 invalid YAML: the document nests too deeply to be read']);
  });

  it('an alias inside the node it names (a cyclic value) is an error at the alias, not a stack overflow', async () => {
    const merge = join(dir, 'cycle-merge.yaml');
    writeFileSync(merge, 'apiVersion: svcform/v1\nkind: Rule\nmetadata: &m\n  name: loop\n  <<: *m\nspec: {}\n');
    expectErrors(await svcform(['validate', merge]), shown(merge), ['5:7 invalid YAML: this alias refers to a node that contains it, which would make the document infinite']);
    const sequence = join(dir, 'cycle-sequence.yaml');
    writeFileSync(sequence, 'apiVersion: svcform/v1\nkind: Rule\nmetadata: {name: loop}\nspec:\n  tags: &t [a, *t]\n');
    expectErrors(await svcform(['validate', sequence]), shown(sequence), ['5:16 invalid YAML: this alias refers to a node that contains it, which would make the document infinite']);
  });

  it('a directory that does not exist', async () => {
    const missing = join(dir, 'no-such-dir');
    const run = await svcform(['validate', missing]);
    expectErrors(run, shown(missing), ['1:1 no such file or directory']);
  });

  it('a FIFO (a path that exists but cannot be read as a file) answers at once instead of blocking', async () => {
    const fifo = join(dir, 'pipe.yaml');
    execFileSync('mkfifo', [fifo]);
    const run = await svcform(['validate', fifo]);
    expectErrors(run, shown(fifo), ['1:1 cannot read: a named pipe, not a manifest file']);
  });

  it('a dangling symbolic link', async () => {
    const link = join(dir, 'dangling.yaml');
    symlinkSync(join(dir, 'target-that-does-not-exist.yaml'), link);
    const run = await svcform(['validate', link]);
    expectErrors(run, shown(link), ['1:1 cannot read: broken symbolic link (its target does not exist)']);
  });

  it('inside a directory, unreadable manifests are reported (not skipped) and the readable ones still validated', async () => {
    const repo = join(dir, 'repo');
    mkdirSync(join(repo, 'nested'), { recursive: true });
    writeFileSync(join(repo, 'nested', 'ok.yaml'), 'apiVersion: svcform/v1\nkind: Connector\nmetadata:\n  name: soc-server-log\nspec:\n  name: SOC server log\n  connector_type_id: .server-log\n');
    symlinkSync(join(repo, 'gone.yaml'), join(repo, 'broken.yaml'));
    execFileSync('mkfifo', [join(repo, 'nested', 'pipe.yml')]);
    writeFileSync(join(repo, 'notes.txt'), 'not a manifest: ignored');
    const run = await svcform(['validate', repo]);
    assert.equal(run.code, 1);
    assert.deepEqual(
      run.lines.map((d) => `${d.file}:${d.line}:${d.col}: ${d.text}`),
      [`${shown(join(repo, 'broken.yaml'))}:1:1: cannot read: broken symbolic link (its target does not exist)`, `${shown(join(repo, 'nested', 'pipe.yml'))}:1:1: cannot read: a named pipe, not a manifest file`],
    );
    assert.match(run.stderr, /1 resources in \d+ files: invalid \(2 errors, 0 warnings\)/);
  });
});
