// The word diff alone, as text.ts imports the line diff alone (the package's index loads nineteen modules).
import { diffWords } from 'diff/lib/diff/word.js';
import { diffLines } from 'diff/lib/diff/line.js';
import { fieldLabel, hasAt, setAt } from '../common/pointer.js';
import { yaml } from '../common/yaml.js';
import type { CreateChange, PlannedChange } from '../engine/plan.js';
import { clone, isPlainObject } from '../kinds/normalize.js';
import { adapterFor } from '../kinds/registry.js';
import { SENSITIVE } from '../manifest/redact.js';
import { RunScope } from '../kinds/run-scope.js';

/**
 * What a create writes: the manifest's spec as the server will hold it (the same normalized form
 * the diff of an update compares), with every value from ${env:...} or ${file:...} as (sensitive)
 * by pointer, so even a secret too short for the redactor to recognise stays hidden. The JSON
 * plan's `after`.
 */
export function createdSpec(c: CreateChange): Record<string, unknown> {
  const adapter = adapterFor(c.kind);
  // A create the plan made carries its normalization in the plan's run; one made otherwise (tests) gets a run of its own.
  const spec = clone(c.normalized ? c.normalized() : adapter ? adapter.normalizeDesired(c.resource, new RunScope()) : c.resource.spec);
  for (const pointer of c.resource.secretPointers) if (hasAt(spec, pointer)) setAt(spec, pointer, SENSITIVE);
  return spec;
}

/**
 * The created spec, or nothing should the kind fail to normalize the manifest: a rendering never
 * fails a plan, and the manifest as written may hold write-only values the normalized form leaves out.
 */
function createdOrNothing(c: CreateChange): Record<string, unknown> {
  try {
    return createdSpec(c);
  } catch {
    return {};
  }
}

/** The manifest's spec as written, secrets by pointer as (sensitive). */
function writtenSpec(c: CreateChange): Record<string, unknown> {
  if (c.resource.secretPointers.size === 0) return c.resource.spec;
  const spec = clone(c.resource.spec);
  for (const pointer of c.resource.secretPointers) if (hasAt(spec, pointer)) setAt(spec, pointer, SENSITIVE);
  return spec;
}

/** Arrays in a create's content longer than this show their first members and a count (a value list's million values). */
export const REVIEW_ARRAY_SHOWN = 20;

/**
 * The fields of a create a person reviews: the kind adapter's `reviewFields` (every field when it
 * declares none), from the spec as the server will hold it, and where that leaves a field out
 * (what the server fills in itself, such as a rule action's connector type) from the manifest.
 * A saved plan, which has no manifest, gives its `after`. Undefined for other changes.
 */
export function reviewOf(c: PlannedChange): Record<string, unknown> | undefined {
  if (c.action !== 'create') return undefined;
  const resource = (c as Partial<CreateChange>).resource;
  const saved = (c as { after?: Record<string, unknown> }).after;
  const sources = resource ? [createdOrNothing(c), writtenSpec(c)] : saved ? [saved] : [];
  if (sources.length === 0) return undefined;
  const fields = adapterFor(c.kind)?.reviewFields;
  // The manifest as written fills in only fields the kind declares for review (never write-only ones).
  let review: unknown = fields ? undefined : sources[0];
  for (const pointer of fields ?? []) review = merge(review, project(sources, pointer.split('/').slice(1)));
  if (!isPlainObject(review)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(review)) {
    out[key] = Array.isArray(value) && value.length > REVIEW_ARRAY_SHOWN ? [...value.slice(0, REVIEW_ARRAY_SHOWN), `… ${value.length - REVIEW_ARRAY_SHOWN} more`] : value;
  }
  return out;
}

/** The value at `segments` (`*` for every member of an array), from the first source that has it. */
function project(sources: unknown[], segments: string[]): unknown {
  if (segments.length === 0) return sources.find((s) => s !== undefined);
  const [seg, ...rest] = segments;
  if (seg === '*') {
    const first = sources.find(Array.isArray) as unknown[] | undefined;
    if (!first) return undefined;
    return first.map((_, i) => project(sources.map((s) => (Array.isArray(s) ? s[i] : undefined)), rest) ?? {});
  }
  const value = project(sources.map((s) => (isPlainObject(s) ? s[seg] : undefined)), rest);
  return value === undefined ? undefined : { [seg]: value };
}

/** Two projections as one: objects key by key (in the order the fields are declared), arrays member by member. */
function merge(a: unknown, b: unknown): unknown {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (Array.isArray(a) && Array.isArray(b)) return a.map((x, i) => merge(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = merge(out[k], v);
    return out;
  }
  return a;
}

const yamlLines = (value: unknown) => yaml().stringify(value, { lineWidth: 0 }).replace(/\n$/, '').split('\n');

/**
 * A create's reviewed fields as lines: `spec.query: "..."` for a one-line value, else the label
 * and the value's YAML indented under it.
 */
export function reviewLines(review: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(review)) {
    const label = fieldLabel(`/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    const empty = (Array.isArray(value) && value.length === 0) || (isPlainObject(value) && Object.keys(value).length === 0);
    const oneLine = value === null || typeof value !== 'object' || empty ? JSON.stringify(value) : undefined;
    if (oneLine !== undefined && !(typeof value === 'string' && value.includes('\n'))) lines.push(`${label}: ${oneLine}`);
    else lines.push(`${label}:`, ...yamlLines(value).map((line) => `  ${line}`));
  }
  return lines;
}

/** Strings longer than this (or of several lines) change word by word instead of as a whole. */
export const WORD_DIFF_MIN_CHARS = 60;
/** Unchanged text kept on each side of a change in a word diff; the rest is elided. */
const WORD_CONTEXT_CHARS = 30;

export function wantsWordDiff(before: unknown, after: unknown): before is string {
  return typeof before === 'string' && typeof after === 'string' && (Math.max(before.length, after.length) > WORD_DIFF_MIN_CHARS || before.includes('\n') || after.includes('\n'));
}

export interface WordDiffStyle {
  removed(text: string): string;
  added(text: string): string;
}

/** Plain markers, as `git diff --word-diff` writes them: readable without colours and in Markdown. */
export const WORD_MARKERS: WordDiffStyle = { removed: (t) => `[-${t}-]`, added: (t) => `{+${t}+}` };

/**
 * One line's change word by word: removed words as [-...-], added ones as {+...+}, unchanged text
 * kept only near a change (… for the rest).
 */
export function wordDiffLine(before: string, after: string, style: WordDiffStyle = WORD_MARKERS): string {
  const parts = diffWords(before, after);
  let text = '';
  parts.forEach((part, i) => {
    if (part.added) text += style.added(part.value);
    else if (part.removed) text += style.removed(part.value);
    else {
      const value = part.value;
      const head = i > 0 ? WORD_CONTEXT_CHARS : 0;
      const tail = i < parts.length - 1 ? WORD_CONTEXT_CHARS : 0;
      if (value.length <= head + tail + 3) {
        text += value;
        return;
      }
      // Cut at spaces where the kept text has one, so that no word shows in part.
      let kept = value.slice(0, head);
      if (kept.includes(' ') && !/\s/.test(value[head] ?? ' ')) kept = kept.slice(0, kept.lastIndexOf(' ') + 1);
      let end = tail > 0 ? value.slice(value.length - tail) : '';
      if (end.includes(' ') && !/\s/.test(value[value.length - tail - 1] ?? ' ')) end = end.slice(end.indexOf(' '));
      text += `${kept}…${end}`;
    }
  });
  return text;
}

/** A line of a long string's change: unchanged (' '), removed ('-'), added ('+') or changed word by word ('~'). */
export interface TextChangeLine {
  mark: ' ' | '-' | '+' | '~';
  text: string;
}

/**
 * A long string's change. One line: its words. Several lines: a line diff, where each line
 * replaced by one other line shows its words, and lines removed or added as a whole stay so.
 */
export function textChangeLines(before: string, after: string, style: WordDiffStyle = WORD_MARKERS): TextChangeLine[] {
  if (!before.includes('\n') && !after.includes('\n')) return [{ mark: '~', text: wordDiffLine(before, after, style) }];
  const split = (value: string) => value.replace(/\n$/, '').split('\n');
  const parts = diffLines(before.endsWith('\n') ? before : before + '\n', after.endsWith('\n') ? after : after + '\n');
  const out: TextChangeLine[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const next = parts[i + 1];
    if (part.removed && next?.added && split(part.value).length === split(next.value).length) {
      const added = split(next.value);
      split(part.value).forEach((line, k) => out.push({ mark: '~', text: wordDiffLine(line, added[k], style) }));
      i += 1;
      continue;
    }
    const mark = part.added ? '+' : part.removed ? '-' : ' ';
    for (const line of split(part.value)) out.push({ mark, text: line });
  }
  return out;
}
