import type { Resource } from '../manifest/types.js';
import { evaluateRule } from '../kinds/rule/evaluate.js';
import type { EventDoc, QueryMatch } from '@svcform/query/types.js';
import type { RuleTests, TestCase, TestExpectation } from './test-files.js';

/** The outcome of one case: passed, or the first difference between what was expected and what the rule did. */
export interface CaseResult {
  name: string;
  /** Line of the case in its test file. */
  line: number;
  passed: boolean;
  /** The first difference, or why the rule could not be evaluated. */
  message?: string;
}

export interface RuleResult {
  rule: string;
  space: string;
  file: string;
  line: number;
  cases: CaseResult[];
}

const json = (v: unknown) => JSON.stringify(v);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function indices(match: QueryMatch, events: EventDoc[]): number[] {
  return match.events.map((e) => events.indexOf(e));
}

/** Whether every key of `expected` has the same value in `actual` (values compared as JSON). */
function rowFits(expected: Record<string, unknown>, actual: Record<string, unknown>): boolean {
  return Object.entries(expected).every(([k, v]) => json(actual[k]) === json(v));
}

/** Expected rows against actual ones, in any order: each expected row takes a distinct actual one. */
function rowsDiffer(what: string, expected: Record<string, unknown>[], actual: Record<string, unknown>[]): string | undefined {
  const left = [...actual];
  for (const row of expected) {
    const i = left.findIndex((a) => rowFits(row, a));
    if (i === -1) return `expected ${what} ${json(row)}, not among ${json(actual)}`;
    left.splice(i, 1);
  }
  if (left.length) return `unexpected ${what} ${json(left[0])} (expected only ${json(expected)})`;
  return undefined;
}

export function firstDifference(expect: TestExpectation, alerts: QueryMatch[], events: EventDoc[]): string | undefined {
  if (expect.alerts !== undefined && alerts.length !== expect.alerts) {
    const which = alerts.slice(0, 5).map((a) => json(a.row ?? indices(a, events)));
    return `expected ${plural(expect.alerts, 'alert')}, got ${alerts.length}${alerts.length ? ` (${which.join(', ')}${alerts.length > 5 ? ', ...' : ''})` : ''}`;
  }
  if (expect.matching !== undefined) {
    const got = [...new Set(alerts.flatMap((a) => indices(a, events)))].sort((a, b) => a - b);
    const want = [...new Set(expect.matching)].sort((a, b) => a - b);
    if (json(got) !== json(want)) return `expected events ${json(want)} to match, got ${json(got)}`;
  }
  if (expect.sequences !== undefined) {
    const got = alerts.map((a) => json(indices(a, events))).sort();
    const want = expect.sequences.map((s) => json(s)).sort();
    if (json(got) !== json(want)) return `expected sequences [${want.join(', ')}], got [${got.join(', ')}]`;
  }
  for (const key of ['groups', 'rows'] as const) {
    const want = expect[key];
    if (want === undefined) continue;
    const differs = rowsDiffer(key === 'groups' ? 'group' : 'row', want, alerts.map((a) => a.row ?? {}));
    if (differs) return differs;
  }
  return undefined;
}

async function runCase(rule: Resource, c: TestCase): Promise<CaseResult> {
  // Each case gets its own copies: an evaluator must not see another case's events.
  const events = structuredClone(c.events);
  const evaluation = await evaluateRule(rule.spec, events);
  const base = { name: c.name, line: c.pos.line };
  if (!evaluation.ok) return { ...base, passed: false, message: evaluation.reason };
  const message = firstDifference(c.expect, evaluation.alerts, events);
  return message ? { ...base, passed: false, message } : { ...base, passed: true };
}

/** Runs one test document against the rules; a rule that is missing or ambiguous fails every case with that reason. */
export async function runRuleTests(tests: RuleTests, rules: Resource[]): Promise<RuleResult> {
  const named = rules.filter((r) => r.kind === 'Rule' && r.name === tests.rule && (tests.space === undefined || r.space === tests.space));
  const base = { rule: tests.rule, file: tests.file, line: tests.pos.line };
  if (named.length !== 1) {
    const why = named.length === 0 ? `no Rule named ${json(tests.rule)}${tests.space ? ` in space ${tests.space}` : ''} among the manifests` : `Rule ${json(tests.rule)} is declared in several spaces (${named.map((r) => r.space).join(', ')}): set space:`;
    return { ...base, space: tests.space ?? '', cases: tests.cases.map((c) => ({ name: c.name, line: c.pos.line, passed: false, message: why })) };
  }
  const rule = named[0]!;
  const cases: CaseResult[] = [];
  for (const c of tests.cases) cases.push(await runCase(rule, c));
  return { ...base, space: rule.space, cases };
}
