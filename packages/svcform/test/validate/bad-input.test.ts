/**
 * The bad-input corpus: every file under test/fixtures/bad-input (its expected errors are written in
 * its first lines as `# expect: line:col message`), plus cases that need a named pipe, a symbolic
 * link or a huge file and are made in a temporary directory. Each goes through validate, plan and
 * apply against an emulator: each must exit 1 with its `file:line:col:` errors, never crash, never
 * hang, never leak a file's content, and never send the server anything but reads.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { emulator } from '@svcform/emulator/testing.js';
import { ROOT, shown, svcform, type Run } from './harness.js';
import { TEST_CACHE_HOME } from '../helpers/cache-home.js';

const CORPUS = 'test/fixtures/bad-input';
/** A value of the environment the runs get: it must never be printed. */
const API_KEY = 'corpus-api-key-7731';
// Manifests may not read svcform's own credential (SVC_API_KEY): fixtures interpolate CORPUS_SECRET.
const ENV = { SVC_API_KEY: API_KEY, CORPUS_SECRET: API_KEY };
const RUN_LIMIT_MS = 10_000;
const DIAGNOSTIC = /^(.+?):(\d+):(\d+): (warning: )?(.*)$/;
/** What a crash, or the content of a file that must not be read, looks like in the output. */
const CRASH = /TypeError|ReferenceError|RangeError|SyntaxError|Maximum call stack|^\s+at .+:\d+:\d+\)?$|internal error/m;
const LEAK = new RegExp(`root:x:0:0|PATH=/|${API_KEY}|ci-secret-value`);

interface Case {
  name: string;
  /** The PATH argument. */
  file: string;
  /** `line:col text`: each printed error in order, the text a substring of the message. */
  expect: string[];
  args?: string[];
  /** Run the CLI in a child process (a regression there would block the whole test process). */
  child?: boolean;
}

function corpusFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = join(dir, name);
      return statSync(full).isDirectory() ? corpusFiles(full) : [full];
    });
}

function corpusCases(): Case[] {
  return corpusFiles(resolve(ROOT, CORPUS)).map((full) => {
    const expect = [...readFileSync(full, 'utf8').matchAll(/^# expect: (.*?)\r?$/gm)].map((m) => m[1]);
    return { name: relative(resolve(ROOT, CORPUS), full), file: shown(relative(ROOT, full)), expect };
  });
}

let emu: RunningEmulator;
let tmp: string;

const RULE = (extra: string) =>
  `apiVersion: svcform/v1\nkind: Rule\nmetadata:\n  name: ssh-brute-force\nspec:\n  name: SSH brute force\n  description: d\n  type: query\n  query: 'a:b'\n  index: [logs-*]\n  risk_score: 21\n  severity: medium\n${extra}`;
const CHAT = (value: string) => `apiVersion: svcform/v1\nkind: Connector\nmetadata:\n  name: soc-chat\nspec:\n  name: SOC chat\n  connector_type_id: .chat\n  secrets:\n    webhookUrl: ${value}\n`;
const LIST = (itemsFile: string) => `apiVersion: svcform/v1\nkind: ValueList\nmetadata:\n  name: bad-domains\nspec:\n  name: Bad domains\n  description: d\n  type: keyword\n  items_file: ${itemsFile}\n`;
const EXCEPTIONS = (itemsFile: string) => `apiVersion: svcform/v1\nkind: ExceptionList\nmetadata:\n  name: deep-items\nspec:\n  name: Deep items\n  description: d\n  type: detection\n  items_file: ${itemsFile}\n`;

/** Cases that need a named pipe, symbolic links or large files: made in a temporary repository (--root). */
function generatedCases(): Case[] {
  const repo = join(tmp, 'repo');
  const m = (name: string, text: string) => {
    writeFileSync(join(repo, 'manifests', name), text);
    return join(repo, 'manifests', name);
  };
  const root = ['--root', repo];
  const deep = `  meta:\n${Array.from({ length: 2000 }, (_, i) => `${'  '.repeat(i + 2)}k:\n`).join('')}${'  '.repeat(2002)}v: .inf\n`;
  return [
    { name: 'a ${file:} that is a named pipe', file: m('file-fifo.yaml', CHAT('${file:../secrets/pipe}')), expect: ['9:5 Connector/soc-chat: ${file:../secrets/pipe}: ../secrets/pipe is a named pipe, not a regular file'], args: root, child: true },
    { name: 'a ${file:} symlink to a file outside the root', file: m('file-symlink.yaml', CHAT('${file:../secrets/escape.txt}')), expect: ['9:5 Connector/soc-chat: ${file:../secrets/escape.txt}: ../secrets/escape.txt leads outside the repository root'], args: root },
    { name: 'a ${file:} through a symlinked directory outside the root', file: m('file-symlink-dir.yaml', CHAT('${file:../linked/ci-secret.txt}')), expect: ['9:5 Connector/soc-chat: ${file:../linked/ci-secret.txt}: ../linked/ci-secret.txt leads outside the repository root'], args: root },
    { name: 'a ${file:} symlink to /dev/zero', file: m('file-zero.yaml', CHAT('${file:../secrets/zero}')), expect: ['9:5 Connector/soc-chat: ${file:../secrets/zero}: ../secrets/zero leads outside the repository root'], args: root },
    { name: 'a ${file:} symlink loop', file: m('file-loop.yaml', CHAT('${file:../secrets/loop-a}')), expect: ['9:5 Connector/soc-chat: ${file:../secrets/loop-a}: cannot read ../secrets/loop-a: too many levels of symbolic links'], args: root },
    { name: 'a ${file:} over 1 MiB', file: m('file-big.yaml', CHAT('${file:../secrets/big.txt}')), expect: ['9:5 Connector/soc-chat: ${file:../secrets/big.txt}: ../secrets/big.txt is 1048577 bytes, over the limit of 1 MiB'], args: root },
    { name: 'a ${file:} that is not UTF-8', file: m('file-latin1.yaml', CHAT('${file:../secrets/latin1.txt}')), expect: ['9:5 Connector/soc-chat: ${file:../secrets/latin1.txt}: ../secrets/latin1.txt is not UTF-8 text'], args: root },
    { name: 'an items_file that is a named pipe', file: m('items-fifo.yaml', LIST('../lists/pipe')), expect: ['9:3 ValueList/bad-domains: items_file cannot be read: ../lists/pipe (relative to this manifest): it is a named pipe, not a regular file'], args: root, child: true },
    { name: 'an items_file over 64 MiB', file: m('items-huge.yaml', LIST('../lists/huge.txt')), expect: ['9:3 ValueList/bad-domains: items_file cannot be read: ../lists/huge.txt (relative to this manifest): it is 67108865 bytes, over the limit of 64 MiB'], args: root },
    { name: 'an items_file that is a directory', file: m('items-dir.yaml', LIST('../lists')), expect: ['9:3 ValueList/bad-domains: items_file cannot be read: ../lists (relative to this manifest): it is a directory, not a regular file'], args: root },
    { name: 'an items_file symlink outside the root', file: m('items-symlink.yaml', LIST('../secrets/escape.txt')), expect: ['9:3 ValueList/bad-domains: items_file cannot be read: ../secrets/escape.txt (relative to this manifest): it leads outside the repository root'], args: root },
    { name: 'a 10 MB unknown key', file: m('key-10mb.yaml', RULE(`  ${'k'.repeat(10 * 1024 * 1024)}: 1\n`)), expect: [`13:3 Rule/ssh-brute-force: spec.${'k'.repeat(79)}… is not a known field`], args: root },
    { name: '2,000 nested mappings with .inf at the bottom', file: m('deep.yaml', RULE(deep)), expect: [`2014:4005 Rule/ssh-brute-force: spec.meta.k.k.k.k${GAP}.k.k.v must be a finite number, not infinity`], args: root },
    {
      name: 'an exception items_file nested 100,000 deep',
      file: m('items-deep.yaml', EXCEPTIONS('../lists/deep-items.yaml')),
      expect: ['9:3 ExceptionList/deep-items: items_file cannot be read: ../lists/deep-items.yaml (relative to this manifest): the document nests too deeply to be read'],
      args: root,
    },
    { name: 'a manifest that is a named pipe', file: join(repo, 'pipes', 'pipe.yaml'), expect: ['1:1 cannot read: a named pipe, not a manifest file'], args: root, child: true },
    { name: 'a manifest that is /dev/zero', file: '/dev/zero', expect: ['1:1 cannot read: a device, not a manifest file'], args: root },
    { name: 'a manifest that is a symlink loop', file: join(repo, 'manifests', 'loop.yaml'), expect: ['1:1 cannot read: too many levels of symbolic links'], args: root },
  ];
}

function makeRepository(): void {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'svcform-bad-input-')));
  const repo = join(tmp, 'repo');
  for (const d of ['manifests', 'secrets', 'lists', 'pipes']) mkdirSync(join(repo, d), { recursive: true });
  mkdirSync(join(tmp, 'outside'));
  writeFileSync(join(tmp, 'outside', 'ci-secret.txt'), 'ci-secret-value\n');
  execFileSync('mkfifo', [join(repo, 'secrets', 'pipe'), join(repo, 'lists', 'pipe'), join(repo, 'pipes', 'pipe.yaml')]);
  symlinkSync(join(tmp, 'outside', 'ci-secret.txt'), join(repo, 'secrets', 'escape.txt'));
  symlinkSync(join(tmp, 'outside'), join(repo, 'linked'));
  symlinkSync('/dev/zero', join(repo, 'secrets', 'zero'));
  symlinkSync(join(repo, 'secrets', 'loop-b'), join(repo, 'secrets', 'loop-a'));
  symlinkSync(join(repo, 'secrets', 'loop-a'), join(repo, 'secrets', 'loop-b'));
  symlinkSync(join(repo, 'manifests', 'loop.yaml'), join(repo, 'manifests', 'loop.yaml.target'));
  symlinkSync(join(repo, 'manifests', 'loop.yaml.target'), join(repo, 'manifests', 'loop.yaml'));
  writeFileSync(join(repo, 'secrets', 'big.txt'), '');
  truncateSync(join(repo, 'secrets', 'big.txt'), 1024 * 1024 + 1);
  writeFileSync(join(repo, 'lists', 'huge.txt'), '');
  truncateSync(join(repo, 'lists', 'huge.txt'), 64 * 1024 * 1024 + 1);
  writeFileSync(join(repo, 'secrets', 'latin1.txt'), Buffer.from('caf\xe9', 'latin1'));
  writeFileSync(join(repo, 'lists', 'deep-items.yaml'), `- ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`);
}

/** The CLI in a child process, killed after RUN_LIMIT_MS: for cases a regression would make block. */
function childRun(args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [resolve(ROOT, 'dist/src/cli/main.js'), ...args], { cwd: process.cwd(), env: { PATH: process.env.PATH, XDG_CACHE_HOME: TEST_CACHE_HOME, ...ENV }, timeout: RUN_LIMIT_MS, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      const lines = stderr.split('\n').flatMap((line) => {
        const m = DIAGNOSTIC.exec(line);
        return m ? [{ file: m[1], line: Number(m[2]), col: Number(m[3]), warning: !!m[4], text: m[5] }] : [];
      });
      done({ code: err?.killed ? -2 : code, stdout, stderr: stderr + (err?.killed ? '\n(killed: the run hung)' : ''), lines });
    });
  });
}

function bounded(run: Promise<Run>): Promise<Run> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<Run>((done) => {
    timer = setTimeout(() => done({ code: -2, stdout: '', stderr: '(the run hung)', lines: [] }), RUN_LIMIT_MS);
  });
  return Promise.race([run, limit]).finally(() => clearTimeout(timer));
}

function check(c: Case, command: string, run: Run, ms: number): void {
  const output = run.stdout + run.stderr;
  const about = `\n${command} ${c.name}: exit ${run.code} in ${Math.round(ms)} ms; output:\n${output.slice(0, 3000)}`;
  assert.ok(ms < RUN_LIMIT_MS, `bounded in time${about}`);
  assert.equal(run.code, 1, `exit code 1${about}`);
  assert.doesNotMatch(output, CRASH, `no crash${about}`);
  assert.doesNotMatch(output, LEAK, `nothing of a refused file or of the environment is printed${about}`);
  const errors = run.lines.filter((d) => !d.warning);
  assert.equal(errors.length, c.expect.length, `${c.expect.length} errors expected${about}`);
  c.expect.forEach((expected, i) => {
    const m = /^(\d+):(\d+) (.*)$/.exec(expected);
    assert.ok(m, `bad expectation ${expected}`);
    assert.equal(errors[i].file, c.file, `error ${i + 1}: file${about}`);
    assert.equal(`${errors[i].line}:${errors[i].col}`, `${m[1]}:${m[2]}`, `error ${i + 1}: line:col${about}`);
    assert.ok(includesInOrder(errors[i].text, m[3].split(GAP)), `error ${i + 1}: expected\n  ${m[3]}\nin\n  ${errors[i].text}${about}`);
  });
  if (command !== 'validate') assert.match(run.stderr, /errors? in the manifests; nothing was sent to the server/, about);
}

/** In an expectation, stands for any text (the middle of a shortened path). */
const GAP = ' ⟨…⟩ ';

function includesInOrder(text: string, parts: string[]): boolean {
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
}

describe('bad input: validate, plan and apply refuse it with file:line:col errors, without crash, hang, leak or write', () => {
  before(async () => {
    emu = await emulator();
    makeRepository();
  });
  after(async () => {
    await emu.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const corpus = corpusCases();
  it('the corpus holds more than 100 cases, each with its expected errors', () => {
    assert.ok(corpus.length > 100, `${corpus.length} cases`);
    for (const c of corpus) assert.ok(c.expect.length > 0, `${c.name} has no # expect: line`);
  });

  const runAll = async (c: Case) => {
    for (const command of ['validate', 'plan', 'apply']) {
      const args = [command, c.file, ...(c.args ?? []), ...(command === 'validate' ? [] : ['--url', emu.url])];
      const before = emu.log.all().length;
      const started = performance.now();
      const run = c.child ? await childRun(args) : await bounded(svcform(args, ENV));
      check(c, command, run, performance.now() - started);
      const writes = emu.log.all().slice(before).filter((r) => r.method !== 'GET');
      assert.deepEqual(writes, [], `${command} ${c.name}: only reads may reach the server`);
    }
  };

  for (const c of corpus) it(c.name, () => runAll(c));

  // Made in before(): listed lazily so that the temporary repository exists when they run.
  it('generated cases (named pipes, symbolic links, 64 MiB and 10 MB inputs, deep nesting)', async (t) => {
    for (const c of generatedCases()) await t.test(c.name, () => runAll(c));
  });
});
