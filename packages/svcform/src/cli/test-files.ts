import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { displayPath, parseManifestText } from '../manifest/load.js';
import type { Diagnostic, DocPath, SourcePos } from '../manifest/types.js';
import type { EventDoc } from '@svcform/query/types.js';

/**
 * Rule test files (`*.test.yaml` or `*.test.yml`, anywhere under the PATHs; manifests skip them).
 * One YAML document per rule:
 *
 *   rule: ssh-brute-force        # the rule's metadata.name (rule_id)
 *   space: default               # optional, when the name is in several spaces
 *   cases:
 *     - name: five failures from one address alert
 *       events: [{...}, {...}]   # sample documents, nested or dotted field names
 *       expect:
 *         alerts: 1              # how many alerts
 *         matching: [0, 2]       # query rules: which events (0-based) alert
 *         groups: [{source.ip: 10.0.0.1, count: 5}]   # threshold: group-by values, count, cardinality
 *         sequences: [[0, 3]]    # eql: the events of each sequence, in order
 *         rows: [{host.name: a}] # qlang: result rows (the keys given must match)
 */

export interface TestExpectation {
  alerts?: number;
  matching?: number[];
  groups?: Record<string, unknown>[];
  sequences?: number[][];
  rows?: Record<string, unknown>[];
}

export interface TestCase {
  name: string;
  events: EventDoc[];
  expect: TestExpectation;
  pos: SourcePos;
}

export interface RuleTests {
  file: string;
  rule: string;
  space?: string;
  pos: SourcePos;
  cases: TestCase[];
}

export function isTestFile(name: string): boolean {
  return /\.test\.ya?ml$/i.test(name);
}

/** Test files under PATHs (files as given, directories walked; hidden entries and node_modules skipped). */
export function findTestFiles(paths: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (isTestFile(name)) found.push(full);
    }
  };
  for (const p of paths) {
    const abs = resolve(p);
    let isDir: boolean;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      continue; // loading the manifests of the same PATHs reports it
    }
    if (isDir) walk(abs);
    else if (isTestFile(abs)) found.push(abs);
  }
  return found;
}

const TOP = ['rule', 'space', 'cases'];
const CASE = ['name', 'events', 'expect'];
const EXPECT = ['alerts', 'matching', 'groups', 'sequences', 'rows'];

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isIndex = (v: unknown, count: number) => Number.isInteger(v) && (v as number) >= 0 && (v as number) < count;

export function readTestFile(file: string): { tests: RuleTests[]; diagnostics: Diagnostic[] } {
  const parsed = parseManifestText(readFileSync(file, 'utf8'), file);
  const diagnostics = parsed.diagnostics.map((d) => ({ ...d, message: d.message.replace(/^a manifest document must be a mapping \(apiVersion, kind, metadata, spec\)/, 'a test document must be a mapping (rule, cases)') }));
  const tests: RuleTests[] = [];
  for (const doc of parsed.docs) {
    const errors: Diagnostic[] = [];
    const fail = (path: DocPath, message: string) => errors.push({ severity: 'error', pos: doc.posOf(path), message: `${label(path)}: ${message}` });
    const raw = doc.value as Record<string, unknown>;
    for (const key of Object.keys(raw)) if (!TOP.includes(key)) fail([key], `not a test file setting (${TOP.join(', ')})`);
    if (typeof raw.rule !== 'string' || raw.rule === '') fail(['rule'], "must be the rule's metadata.name");
    if (raw.space !== undefined && typeof raw.space !== 'string') fail(['space'], 'must be a space id');
    if (!Array.isArray(raw.cases) || raw.cases.length === 0) fail(['cases'], 'must be a non-empty list of cases ({name, events, expect})');
    const cases: TestCase[] = [];
    (Array.isArray(raw.cases) ? raw.cases : []).forEach((c: unknown, i: number) => {
      const at = (...rest: DocPath) => ['cases', i, ...rest];
      if (!isMapping(c)) return fail(at(), 'must be a mapping (name, events, expect)');
      for (const key of Object.keys(c)) if (!CASE.includes(key)) fail(at(key), `not a case setting (${CASE.join(', ')})`);
      if (c.name !== undefined && typeof c.name !== 'string') fail(at('name'), 'must be a string');
      if (!Array.isArray(c.events) || !c.events.every(isMapping)) fail(at('events'), 'must be a list of event documents (mappings)');
      const count = Array.isArray(c.events) ? c.events.length : 0;
      const expect = c.expect;
      if (!isMapping(expect) || !EXPECT.some((k) => k in expect)) return fail(at('expect'), `must be a mapping with at least one of ${EXPECT.join(', ')}`);
      for (const key of Object.keys(expect)) if (!EXPECT.includes(key)) fail(at('expect', key), `not an expectation (${EXPECT.join(', ')})`);
      if (expect.alerts !== undefined && !(Number.isInteger(expect.alerts) && (expect.alerts as number) >= 0)) fail(at('expect', 'alerts'), 'must be a whole number >= 0');
      if (expect.matching !== undefined && !(Array.isArray(expect.matching) && expect.matching.every((n) => isIndex(n, count)))) fail(at('expect', 'matching'), `must be a list of event indices (0 to ${count - 1})`);
      if (expect.sequences !== undefined && !(Array.isArray(expect.sequences) && expect.sequences.every((s) => Array.isArray(s) && s.every((n) => isIndex(n, count))))) {
        fail(at('expect', 'sequences'), `must be a list of lists of event indices (0 to ${count - 1})`);
      }
      for (const key of ['groups', 'rows'] as const) if (expect[key] !== undefined && !(Array.isArray(expect[key]) && (expect[key] as unknown[]).every(isMapping))) fail(at('expect', key), 'must be a list of mappings');
      cases.push({ name: typeof c.name === 'string' ? c.name : `case ${i + 1}`, events: (c.events ?? []) as EventDoc[], expect: expect as TestExpectation, pos: doc.posOf(at()) });
    });
    if (errors.length) diagnostics.push(...errors);
    else tests.push({ file: displayPath(file), rule: raw.rule as string, space: raw.space as string | undefined, pos: doc.posOf(['rule']), cases });
  }
  return { tests, diagnostics };
}

function label(path: DocPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || '(document)';
}
