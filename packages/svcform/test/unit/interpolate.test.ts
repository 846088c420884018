import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { interpolate, type InterpolationResult } from '../../src/manifest/interpolate.js';
import { Redactor, SENSITIVE } from '../../src/manifest/redact.js';
import type { DocPath } from '../../src/manifest/types.js';

let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'svcform-interpolate-'));
  mkdirSync(join(dir, 'secrets'));
  writeFileSync(join(dir, 'secrets', 'token.txt'), 'file-token-7781\n');
  writeFileSync(join(dir, 'secrets', 'crlf.txt'), 'crlf-token-5512\r\n');
  writeFileSync(join(dir, 'secrets', 'two-lines.txt'), 'line one\nline two\n\n');
});
after(() => rmSync(dir, { recursive: true, force: true }));

const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

/** Interpolates `value`; positions are reported as the JSON of the path, so tests can see which string an error names. */
function run(value: unknown, env: Record<string, string> = {}): InterpolationResult & { redactor: Redactor } {
  const redactor = new Redactor();
  const result = interpolate(value, { env, dir, root: dir, redactor, posOf: (path: DocPath) => ({ file: JSON.stringify(path), line: 1, col: 1 }), subject: 'Connector/x' });
  return { ...result, redactor };
}

describe('interpolate', () => {
  it('replaces ${env:NAME} in any string, at any depth, and marks the string secret', () => {
    const r = run({ spec: { secrets: { password: '${env:PASSWORD}' }, list: ['a', 'Bearer ${env:TOKEN}'] } }, { PASSWORD: 'hunter2-long', TOKEN: 'tok-123456' });
    assert.deepEqual(r.value, { spec: { secrets: { password: 'hunter2-long' }, list: ['a', 'Bearer tok-123456'] } });
    assert.deepEqual(r.secretPaths, [
      ['spec', 'secrets', 'password'],
      ['spec', 'list', 1],
    ]);
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.redactor.redact('pw hunter2-long and Bearer tok-123456'), `pw ${SENSITIVE} and ${SENSITIVE}`);
  });

  it('replaces ${file:path} relative to the manifest directory, dropping one trailing newline (LF or CRLF)', () => {
    const r = run({ a: '${file:secrets/token.txt}', b: '${file:secrets/crlf.txt}', c: '${file:./secrets/two-lines.txt}' });
    assert.deepEqual(r.value, { a: 'file-token-7781', b: 'crlf-token-5512', c: 'line one\nline two\n' });
    assert.equal(r.secretPaths.length, 3);
    assert.ok(r.redactor.has('file-token-7781'));
  });

  it('handles several references and literal text in one string', () => {
    const r = run({ url: 'https://${env:USER_NAME}:${env:PASS}@host/${file:secrets/token.txt}' }, { USER_NAME: 'svc-user', PASS: 'p4ss-word' });
    assert.deepEqual(r.value, { url: 'https://svc-user:p4ss-word@host/file-token-7781' });
    assert.ok(r.redactor.has('https://svc-user:p4ss-word@host/file-token-7781'), 'the whole resulting string is a secret too');
  });

  it('$${...} escapes a literal ${...}: not resolved, not secret, no error even when unset', () => {
    const r = run({ a: 'literal $${env:NOT_SET} and $${file:nope.txt}' });
    assert.deepEqual(r.value, { a: 'literal ${env:NOT_SET} and ${file:nope.txt}' });
    assert.deepEqual(r.secretPaths, []);
    assert.deepEqual(r.diagnostics, []);
  });

  it('leaves other ${...} and {{...}} text (queries, mustache templates) untouched', () => {
    const input = { q: 'process where x == "${not.ours}"', m: '{{context.rule.name}} ${context.rule.id}' };
    const r = run(input);
    assert.deepEqual(r.value, input);
    assert.deepEqual(r.diagnostics, []);
  });

  it('does not touch keys or non-string values', () => {
    const r = run({ '${env:KEY}': 1, n: 5, b: true, z: null }, { KEY: 'value-1234' });
    assert.deepEqual(r.value, { '${env:KEY}': 1, n: 5, b: true, z: null });
  });

  it('trims spaces inside the braces', () => {
    assert.deepEqual(run({ a: '${env: PADDED }' }, { PADDED: 'ok-value' }).value, { a: 'ok-value' });
  });

  it('a missing variable is an error at its string, which is left as written and listed as failed', () => {
    const r = run({ spec: { secrets: { password: 'x-${env:MISSING_ONE}' } } });
    assert.deepEqual(
      r.diagnostics.map((d) => [d.pos.file, d.subject, d.message]),
      [['["spec","secrets","password"]', 'Connector/x', 'environment variable MISSING_ONE is not set (referenced as ${env:MISSING_ONE})']],
    );
    assert.deepEqual(r.value, { spec: { secrets: { password: 'x-${env:MISSING_ONE}' } } });
    assert.deepEqual(r.failedPaths, [['spec', 'secrets', 'password']]);
    assert.deepEqual(r.secretPaths, []);
  });

  it('reports every failure, not the first: missing file, directory, invalid name, empty path', () => {
    const r = run({ a: '${file:secrets/none.txt}', b: '${file:secrets}', c: '${env:9LIVES}', d: ['${file:}'] });
    assert.deepEqual(
      r.diagnostics.map((d) => `${d.pos.file} ${d.message}`),
      [
        '["a"] ${file:secrets/none.txt}: file not found: secrets/none.txt',
        '["b"] ${file:secrets}: secrets is a directory, not a regular file',
        '["c"] ${env:9LIVES}: not a valid environment variable name',
        '["d",0] ${file:}: a path is required',
      ],
    );
  });

  it('a partly failed string keeps no resolved secret text, but the resolved secret is still registered for redaction', () => {
    const r = run({ a: '${env:GOOD_ONE}/${env:MISSING_TWO}' }, { GOOD_ONE: 'resolved-secret-99' });
    assert.deepEqual(r.value, { a: '${env:GOOD_ONE}/${env:MISSING_TWO}' });
    assert.ok(r.redactor.has('resolved-secret-99'));
  });

  it('never modifies its input: only containers on the way to a changed string are copied', () => {
    const input = { spec: { secrets: { password: '${env:PW}' }, config: { url: 'https://x.example.com' }, tags: ['a', 'b'] } };
    const before = structuredClone(input);
    const r = run(input, { PW: 'pw-value-4242' });
    assert.deepEqual(input, before);
    const out = r.value as typeof input;
    assert.notEqual(out.spec, input.spec);
    assert.notEqual(out.spec.secrets, input.spec.secrets);
    assert.equal(out.spec.config, input.spec.config, 'an untouched subtree is shared');
    assert.equal(out.spec.tags, input.spec.tags);
    assert.equal(run(before).value, before, 'a document without references comes back as is');
  });

  it('several references under the same containers: each container copied once, every reference replaced', () => {
    const input = { spec: { headers: [{ k: 'a', v: '${env:A}' }, { k: 'b', v: 'x ${env:B}' }, { k: 'c', v: 'plain' }], url: '${env:A}/path' } };
    const before = structuredClone(input);
    const r = run(input, { A: 'alpha-value-1', B: 'beta-value-2' });
    assert.deepEqual(input, before);
    assert.deepEqual(r.value, { spec: { headers: [{ k: 'a', v: 'alpha-value-1' }, { k: 'b', v: 'x beta-value-2' }, { k: 'c', v: 'plain' }], url: 'alpha-value-1/path' } });
    const out = r.value as typeof input;
    assert.equal(out.spec.headers[2], input.spec.headers[2], 'an untouched member is shared');
    assert.deepEqual(r.secretPaths, [['spec', 'headers', 0, 'v'], ['spec', 'headers', 1, 'v'], ['spec', 'url']]);
  });

  it('short secret values are still marked by path even though text redaction skips them', () => {
    const r = run({ spec: { method: '${env:METHOD}' } }, { METHOD: 'get' });
    assert.deepEqual(r.secretPaths, [['spec', 'method']]);
    assert.equal(r.redactor.has('get'), false, 'a 3-letter value would redact ordinary words');
  });

  it('${file:...} reads only regular files inside the repository root: outside, a named pipe and a device are errors at their strings', () => {
    mkfifo(join(dir, 'secrets', 'pipe'));
    const r = run({ a: '${file:/etc/passwd}', b: '${file:../../etc/hostname}', c: '${file:secrets/pipe}', d: 'x ${file:/proc/self/environ}' });
    assert.deepEqual(
      r.diagnostics.map((d) => [d.pos.file, d.message.replace(dir, 'ROOT')]),
      [
        ['["a"]', '${file:/etc/passwd}: /etc/passwd is outside the repository root ROOT: files may be read only from inside it (set the root with --root)'],
        ['["b"]', '${file:../../etc/hostname}: ../../etc/hostname is outside the repository root ROOT: files may be read only from inside it (set the root with --root)'],
        ['["c"]', '${file:secrets/pipe}: secrets/pipe is a named pipe, not a regular file'],
        ['["d"]', '${file:/proc/self/environ}: /proc/self/environ is outside the repository root ROOT: files may be read only from inside it (set the root with --root)'],
      ],
    );
    assert.deepEqual(r.value, { a: '${file:/etc/passwd}', b: '${file:../../etc/hostname}', c: '${file:secrets/pipe}', d: 'x ${file:/proc/self/environ}' });
  });

  it('is linear in the length of a string: 1 MB of unclosed ${env: references (quadratic with a regular expression: 14 s for 240 KB)', () => {
    const text = '${env:'.repeat(200_000);
    const started = performance.now();
    const r = run({ a: text, b: `${text}}` });
    assert.ok(performance.now() - started < 1000, `took ${performance.now() - started} ms`);
    assert.equal((r.value as any).a, text, 'a reference without its closing brace is literal text');
    // The closed one is one reference whose name is everything up to the brace: its message quotes it shortened.
    assert.equal(r.diagnostics.length, 1);
    assert.ok(r.diagnostics[0].message.length < 200);
    assert.match(r.diagnostics[0].message, /^\$\{env:\$\{env:.*…\}: not a valid environment variable name$/);
  });
});
