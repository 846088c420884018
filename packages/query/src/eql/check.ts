import type { FieldUse, QueryProblem } from '../types.js';
import { isCidr } from '../text-match.js';
import type { Expr, Query, Step } from './ast.js';
import { functionSpec, REMOVED_FUNCTIONS } from './functions.js';
import { compileRegex, EQL_REGEX, EQL_REGEX_INSENSITIVE, isRegexProblem } from '../regex/index.js';

/**
 * What the grammar accepts but the server refuses: unknown functions and wrong argument counts,
 * `~` on a function without a case-insensitive form, escapes eql does not know, single-quoted
 * strings, bad CIDR ranges and regular expressions (Lucene's RegExp syntax, src/query/regex),
 * sequences of one step or with join keys of different lengths, unknown time units and pipes. Returns the first problem in text order, and
 * the fields the query names.
 */

export const TIME_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function checkQuery(query: Query, text = ''): { problem?: QueryProblem; fields: FieldUse[] } {
  const problems: QueryProblem[] = [];
  const fields: FieldUse[] = [];
  const report = (offset: number, message: string, length = 1) => problems.push({ offset, length, message });

  const visit = (e: Expr): void => {
    switch (e.type) {
      case 'literal':
        for (const bad of e.escapes ?? []) {
          if (bad.sequence.startsWith('\\u{')) report(bad.offset, `invalid escape sequence "${bad.sequence}": Unicode ends at \\u{10FFFF}`, bad.sequence.length);
          else report(bad.offset, `invalid escape sequence "${bad.sequence}" (write "\\\\" for a backslash)`, 2);
        }
        if (e.singleQuoted) report(e.offset, 'use double quotes ["] for strings, not single quotes [\']');
        return;
      case 'field':
        fields.push({ name: e.name, offset: e.optional ? e.offset + 1 : e.offset });
        return;
      case 'call': {
        const spec = functionSpec(e.name);
        const instead = Object.hasOwn(REMOVED_FUNCTIONS, e.name.toLowerCase()) ? `: ${REMOVED_FUNCTIONS[e.name.toLowerCase()]}` : '';
        if (!spec) report(e.offset, `unknown function "${e.name}"${instead}`, e.name.length);
        else if (e.insensitive && !spec.insensitive) report(e.offset, `function "${e.name}" has no case-insensitive (~) form`, e.name.length);
        else if (e.args.length < spec.min || e.args.length > spec.max) report(e.offset, `function "${e.name}" takes ${arity(spec.min, spec.max)}, found ${e.args.length}`, e.name.length);
        else if (e.name.toLowerCase() === 'cidrmatch') {
          for (const range of e.args.slice(1)) {
            if (range.type === 'literal' && (typeof range.value !== 'string' || !isCidr(range.value))) report(range.offset, `invalid CIDR range ${JSON.stringify(range.value)}`);
          }
        }
        e.args.forEach(visit);
        return;
      }
      case 'not':
      case 'negate':
        visit(e.operand);
        return;
      case 'in':
        visit(e.left);
        e.list.forEach(visit);
        return;
      case 'match':
        visit(e.left);
        for (const p of e.patterns) {
          visit(p);
          if (typeof p.value !== 'string') report(p.offset, `"${e.op}" needs string patterns`);
          else if (e.op.startsWith('regex')) {
            // The backend reads the pattern as a Lucene RegExp: `\-` or `\"` are fine there, `\n` is not.
            const regex = compileRegex(p.value, e.op === 'regex' ? EQL_REGEX : EQL_REGEX_INSENSITIVE);
            if (isRegexProblem(regex)) report(valueOffset(text, p.offset, regex.index), `invalid regular expression: ${regex.message}`, regex.length);
          }
        }
        return;
      default:
        visit(e.left);
        visit(e.right);
    }
  };

  const visitStep = (step: Step, sequenceKeys: number): void => {
    visit(step.query.condition);
    step.by.forEach(visit);
    if (sequenceKeys >= 0 && step.by.length !== sequenceKeys) {
      report(step.offset, `every step needs the same number of join keys (the first has ${sequenceKeys}, this one ${step.by.length})`);
    }
    if (step.runs && (step.runs.value < 1 || step.runs.value > 100)) report(step.runs.offset, 'runs must be between 1 and 100');
    if (step.runs && step.missing) report(step.runs.offset, 'a missing event ![...] cannot repeat (runs)');
  };

  if (query.kind === 'event') visit(query.condition);
  else {
    query.by.forEach(visit);
    const firstKeys = query.steps[0]!.by.length;
    for (const step of query.steps) visitStep(step, firstKeys);
    if (query.kind === 'sequence') {
      // EqlBase.g4 `sequence`: joinKeys before sequenceParams; after them they are `disallowed`.
      if (query.misplacedBy !== null) report(query.misplacedBy, query.maxspan ? 'put the sequence\'s "by" before "with maxspan", not after' : 'a sequence takes one "by" clause');
      if (query.until) visitStep(query.until, firstKeys);
      if (query.maxspan) {
        if (!Object.prototype.hasOwnProperty.call(TIME_UNITS, query.maxspan.unit)) report(query.maxspan.offset, query.maxspan.unit === '' ? 'maxspan needs a time unit (ms, s, m, h or d)' : `unknown time unit "${query.maxspan.unit}" (ms, s, m, h or d)`);
        else if (query.maxspan.amount <= 0) report(query.maxspan.offset, 'maxspan must be positive');
      }
      const stepCount = query.steps.reduce((n, s) => n + Math.max(1, s.runs?.value ?? 1), 0);
      if (stepCount < 2) report(query.offset, 'a sequence needs at least 2 steps');
      if (query.steps.every((s) => s.missing)) report(query.offset, 'a sequence needs at least one step that is not a missing event');
    } else if (query.steps.length < 2) report(query.offset, 'a sample needs at least 2 steps');
  }
  for (const pipe of query.pipes) {
    if (pipe.name !== 'head' && pipe.name !== 'tail') report(pipe.offset, `unknown pipe "${pipe.name}" (head or tail)`);
    else if (pipe.args.length !== 1) report(pipe.offset, `"${pipe.name}" takes one number`);
    else {
      const arg = pipe.args[0]!;
      if (arg.type !== 'literal' || typeof arg.value !== 'number' || !Number.isInteger(arg.value) || arg.value <= 0) report(arg.offset, `"${pipe.name}" takes a positive whole number`);
    }
  }
  problems.sort((a, b) => a.offset - b.offset);
  return { problem: problems[0], fields: fields.sort((a, b) => a.offset - b.offset) };
}

function arity(min: number, max: number): string {
  const n = (k: number) => `${k} argument${k === 1 ? '' : 's'}`;
  if (max === Infinity) return `at least ${n(min)}`;
  return min === max ? n(min) : `${min} to ${n(max)}`;
}

/**
 * Where the character at `index` of a string literal's value stands in the query: past the
 * opening quote, counting each escape sequence of a "..." string as the text it stands for.
 */
export function valueOffset(text: string, literalOffset: number, index: number): number {
  if (text.startsWith('"""', literalOffset)) return literalOffset + 3 + index;
  let at = literalOffset + 1;
  if (text[literalOffset] !== '"') return at + index;
  for (let read = 0; read < index && at < text.length; ) {
    if (text[at] !== '\\') {
      read++;
      at++;
    } else if (text.startsWith('\\u{', at)) {
      const close = text.indexOf('}', at);
      const code = parseInt(text.slice(at + 3, close), 16);
      read += code > 0xffff ? 2 : code <= 0x10ffff ? 1 : 0;
      at = close + 1;
    } else {
      read++;
      at += 2;
    }
  }
  return at;
}
