/**
 * Runs `svcform validate` in-process with a capturing Io and reads its diagnostics back, so that
 * tests can assert each error's exact `file:line:col` and message.
 */
import assert from 'node:assert/strict';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli/program.js';
import type { Io } from '../../src/cli/context.js';
import { TEST_CACHE_HOME } from '../helpers/cache-home.js';

/** The repository root (tests run from dist/test/validate). */
export const ROOT = resolve(fileURLToPath(new URL('../../../', import.meta.url)));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** Diagnostic lines of stderr (the summary line left out). */
  lines: Diagnostic[];
}

export interface Diagnostic {
  file: string;
  line: number;
  col: number;
  warning: boolean;
  /** Everything after `file:line:col: ` (and `warning: `): `Kind/name: message`. */
  text: string;
}

const DIAGNOSTIC = /^(.+?):(\d+):(\d+): (warning: )?(.*)$/;

/** A path as the CLI prints it for a file under the repository: relative to the working directory. */
export function shown(path: string): string {
  const abs = resolve(ROOT, path);
  const rel = relative(process.cwd(), abs);
  return rel && !rel.startsWith('..') ? rel : abs;
}

/** A fixture path under test/fixtures/invalid, as passed to and printed by the CLI. */
export function invalid(name: string): string {
  return shown(`test/fixtures/invalid/${name}`);
}

export function valid(name: string): string {
  return shown(`test/fixtures/valid/${name}`);
}

/** Runs `svcform <args>` with only the given environment variables (so that no real secret or CI setting leaks in). */
export async function svcform(args: string[], env: Record<string, string> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    out: (t) => {
      stdout += t.endsWith('\n') ? t : t + '\n';
    },
    err: (t) => {
      stderr += t.endsWith('\n') ? t : t + '\n';
    },
    env: { XDG_CACHE_HOME: TEST_CACHE_HOME, ...env },
    outTty: false,
    errTty: false,
  };
  const code = await runCli(args, io);
  const lines: Diagnostic[] = [];
  for (const line of stderr.split('\n')) {
    const m = DIAGNOSTIC.exec(line);
    if (m) lines.push({ file: m[1], line: Number(m[2]), col: Number(m[3]), warning: !!m[4], text: m[5] });
  }
  return { code, stdout, stderr, lines };
}

/**
 * One expected diagnostic: `'12:5 Rule/ssh-brute-force: spec.risk_score must be <= 100'`, the
 * position exact and the text a substring of the printed message.
 */
export type Expected = string;

function parseExpected(expected: Expected): { line: number; col: number; text: string } {
  const m = /^(\d+):(\d+) (.+)$/.exec(expected);
  if (!m) throw new Error(`bad expectation ${expected}`);
  return { line: Number(m[1]), col: Number(m[2]), text: m[3] };
}

/**
 * Asserts that the run printed exactly these errors (in this order, all in `file`), and exited 1.
 * Warnings are ignored here; see expectWarnings.
 */
export function expectErrors(run: Run, file: string, expected: Expected[]): void {
  const errors = run.lines.filter((d) => !d.warning);
  const describe = () => `\nstderr was:\n${run.stderr}`;
  assert.equal(run.code, 1, `exit code 1 expected${describe()}`);
  assert.equal(errors.length, expected.length, `${expected.length} errors expected${describe()}`);
  expected.forEach((exp, i) => {
    const want = parseExpected(exp);
    const got = errors[i];
    assert.equal(got.file, file, `error ${i + 1}: file${describe()}`);
    assert.equal(`${got.line}:${got.col}`, `${want.line}:${want.col}`, `error ${i + 1} (${want.text}): line:col${describe()}`);
    assert.ok(got.text.includes(want.text), `error ${i + 1}: expected the message to contain\n  ${want.text}\nbut it was\n  ${got.text}`);
  });
  assert.match(run.stderr, new RegExp(`invalid \\(${expected.length} errors?`), 'the summary counts the errors');
}

export function expectWarnings(run: Run, file: string, expected: Expected[]): void {
  const warnings = run.lines.filter((d) => d.warning);
  assert.equal(warnings.length, expected.length, `${expected.length} warnings expected; stderr:\n${run.stderr}`);
  expected.forEach((exp, i) => {
    const want = parseExpected(exp);
    assert.equal(warnings[i].file, file);
    assert.equal(`${warnings[i].line}:${warnings[i].col}`, `${want.line}:${want.col}`, `warning ${i + 1} position; stderr:\n${run.stderr}`);
    assert.ok(warnings[i].text.includes(want.text), `warning ${i + 1}: expected ${want.text}, got ${warnings[i].text}`);
  });
}

export interface FixtureCase {
  /** Path under test/fixtures/invalid. */
  fixture: string;
  /** What the mistake is (the test name). */
  mistake: string;
  errors: Expected[];
  env?: Record<string, string>;
}

/** Validates one invalid fixture and checks its errors. */
export async function checkFixture(c: FixtureCase): Promise<Run> {
  const file = invalid(c.fixture);
  const run = await svcform(['validate', file], c.env);
  expectErrors(run, file, c.errors);
  return run;
}
