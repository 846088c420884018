// The line diff alone: the package's index loads nineteen modules (17-25 ms to import against 10-14 ms).
import { diffLines } from 'diff/lib/diff/line.js';
import { yaml } from '../common/yaml.js';
import { fieldLabel } from '../common/pointer.js';
import type { FieldChange } from '../engine/diff.js';
import type { Plan, PlannedChange, UnmanagedObject } from '../engine/plan.js';
import { redactor } from '../manifest/redact.js';
import { codeSpan, fenceFor, inlineText } from './markdown-syntax.js';
import { changeTitle, groupedWarnings, summaryLine } from './text.js';
import { coverageDiffMarkdown } from './coverage.js';
import { reviewLines, reviewOf, textChangeLines, wantsWordDiff } from './review.js';

/** GitHub refuses comments over 65,536 characters; this leaves room for what a CI job adds. */
export const DEFAULT_MARKDOWN_MAX_CHARS = 60_000;

export interface MarkdownOptions {
  /** The command whose output this is: the comment's title. */
  command?: 'plan' | 'drift';
  /** The comment's length at most, in characters (UTF-16 code units, which over-counts emoji). */
  maxChars?: number;
  /** `--show-unmanaged`: the live objects outside every manage scope, in a collapsed block. */
  showUnmanaged?: boolean;
}

/** Room kept for the "N more ... not shown" lines, whose length is known only at the end. */
const NOTE_ROOM = 200;

const ORDER: Record<PlannedChange['action'], number> = { delete: 0, update: 1, create: 2, prerequisite: 3 };
const ICON: Record<PlannedChange['action'], string> = { delete: '🗑️', update: '✏️', create: '➕', prerequisite: '➕' };

const size = (lines: readonly string[]) => lines.reduce((n, line) => n + line.length + 1, 0);
const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const redacted = (lines: string[]) => lines.map((line) => redactor.redact(line));

/**
 * A plan as a pull-request comment, valid GitHub-flavoured Markdown: the title, deletes flagged at
 * the top, the summary table, then one line per change (deletes first), then the diffs in a
 * collapsed block. Whatever does not fit in `maxChars` is left out and counted, changes whole.
 */
export function renderPlanMarkdown(plan: Plan, target: string | undefined, options: MarkdownOptions = {}): string {
  const command = options.command ?? 'plan';
  const maxChars = options.maxChars ?? DEFAULT_MARKDOWN_MAX_CHARS;
  const changes = [...plan.changes].sort((a, b) => ORDER[a.action] - ORDER[b.action]);
  const head = redacted(headLines(plan, target, command));
  const tail = ['', redactor.redact(summaryLine(plan))];
  let room = maxChars - size(head) - size(tail) - NOTE_ROOM;

  const body: string[] = [];
  // Errors, then warnings: each a list of findings, as many as fit.
  const findings = (title: string, noun: string, list: Array<{ subject: string; message: string; source?: { file: string; line: number } }>) => {
    if (list.length === 0) return;
    const items = redacted(list.map((e) => `- ${e.source ? `${codeSpan(`${e.source.file}:${e.source.line}`)} ` : ''}${inlineText(`${e.subject}: ${e.message}`)}`));
    const shown = fitting(items.map((item) => [item]), room - size([title, '', '']));
    body.push(title, '', ...shown.flat());
    if (shown.length < items.length) body.push(`- … ${count(items.length - shown.length, `more ${noun}`)} not shown`);
    body.push('');
    room -= size([title, '', '', ...shown.flat()]);
  };
  findings('**Errors**', 'error', plan.errors);
  findings('**Warnings**', 'warning', groupedWarnings(plan));
  // What the change does to detection coverage is for the reviewer, above the changes themselves.
  const coverage = redacted(coverageDiffMarkdown(plan.coverage));
  if (coverage.length && size(coverage) <= room) {
    body.push(...coverage);
    room -= size(coverage);
  }

  if (changes.length === 0) {
    // With errors, parts of the server could not be compared: "matches" would claim too much.
    if (plan.errors.length === 0) body.push(command === 'drift' ? 'No drift: the server matches the manifests.' : 'No changes: the server matches the manifests.');
  } else {
    const items = redacted(changes.map(overviewLine));
    const shown = fitting(items.map((item) => [item]), room - size(['**Changes**', '', '']));
    body.push('**Changes**', '', ...shown.flat());
    if (shown.length < items.length) body.push(`- … ${count(items.length - shown.length, 'more change')} not shown`);
    room -= size(['**Changes**', '', '', ...shown.flat()]);
    // The diffs only add to the list above when some change has fields to show.
    const details = changes.map((c) => ({ change: c, review: reviewOf(c) }));
    if (details.some(({ change, review }) => change.fields.length > 0 || review !== undefined)) {
      const block = detailsBlock(details, room, command);
      body.push(...block);
      room -= size(block);
    }
  }
  if (options.showUnmanaged && plan.unmanaged?.length) body.push(...unmanagedBlock(plan.unmanaged, room));
  return [...head, ...body, ...tail].join('\n');
}

/** The unmanaged objects, one list item each, collapsed (a deployment may hold thousands), as many as fit. */
function unmanagedBlock(objects: UnmanagedObject[], room: number): string[] {
  const items = redacted(objects.map((o) => `- ${codeSpan(`${o.kind}/${o.name}`)} in space ${codeSpan(o.space)}${o.id !== undefined ? ` (id ${codeSpan(o.id)})` : ''}`));
  const summary = `<details><summary>${count(objects.length, 'unmanaged object')}: outside every manage scope, left alone</summary>`;
  const shown = fitting(items.map((item) => [item]), room - size(['', summary, '', '', '</details>', '- … 9,999,999 more not shown']));
  const lines = ['', summary, '', ...shown.flat()];
  if (shown.length < items.length) lines.push(`- … ${count(items.length - shown.length, 'more')} not shown`);
  lines.push('', '</details>');
  return lines;
}

/** `target` undefined: `--hide-target`, the URL left out (CI keeps it secret). */
function headLines(plan: Plan, target: string | undefined, command: 'plan' | 'drift'): string[] {
  const s = plan.summary;
  const lines = [`### svcform ${command}`, '', ...(target === undefined ? [] : [`Target: ${codeSpan(target)}`, ''])];
  if (s.delete > 0) lines.push(`**⚠ ${count(s.delete, 'delete')}:** the objects marked 🗑️ are removed from the server when this plan is applied.`, '');
  if (command === 'drift' && plan.changes.length > 0) lines.push(`Drift: ${count(plan.changes.length, 'change')} needed to bring the server back to the manifests.`, '');
  lines.push(
    '| create | update | delete | unchanged | unmanaged |',
    '|---:|---:|---:|---:|---:|',
    `| ${s.create} | ${s.update} | ${s.delete} | ${s.unchanged} | ${s.unmanaged} |`,
    '',
  );
  return lines;
}

function overviewLine(c: PlannedChange): string {
  // A manifest naming several spaces (metadata.spaces): each of its changes says which manifest.
  const where = `in space ${codeSpan(c.space)}${c.fanOut ? ` (one manifest for ${c.fanOut.spaces.map((s) => codeSpan(s)).join(', ')})` : ''}`;
  if (c.action === 'prerequisite') return `- ${ICON[c.action]} ensure ${inlineText(c.name)} ${where}`;
  const verb = c.action === 'delete' ? '**delete**' : c.action;
  const fields = c.fields.map((f) => codeSpan(fieldLabel(f.pointer)));
  const shownFields = fields.length > 6 ? [...fields.slice(0, 5), `and ${fields.length - 5} more`] : fields;
  const reason = c.reason ? ` (${inlineText(c.reason)})` : '';
  return `- ${ICON[c.action]} ${verb} ${codeSpan(`${c.kind}/${c.name}`)} ${where}${reason}${shownFields.length ? `: ${shownFields.join(', ')}` : ''}`;
}

/**
 * Every change's diff in one collapsed block, inside a `diff` fence (GitHub colours its - and +
 * lines). The HTML lines stand apart from blank lines: an HTML block runs to the next blank line,
 * and Markdown right after `</details>` would otherwise be swallowed into it.
 */
function detailsBlock(changes: Array<{ change: PlannedChange; review?: Record<string, unknown> }>, room: number, command: 'plan' | 'drift'): string[] {
  const blocks = changes.map(({ change, review }) => redacted(diffOf(change, review)));
  const fence = fenceFor(blocks.flat());
  const overhead = ['<details><summary>Full plan: first 9,999,999 of 9,999,999 changes</summary>', '', `${fence}diff`, fence, '', '</details>', ''];
  const shown = fitting(blocks, room - size(overhead));
  if (shown.length === 0) return ['', `The diffs of the plan do not fit in a comment; run ${codeSpan(`svcform ${command}`)} to see them.`];
  const partial = shown.length < blocks.length;
  const summary = partial ? `Full plan: first ${shown.length.toLocaleString('en-US')} of ${count(blocks.length, 'change')}` : 'Full plan';
  const lines = ['', `<details><summary>${summary}</summary>`, '', `${fence}diff`, ...shown.flat()];
  if (partial) lines.push(`  … ${count(blocks.length - shown.length, 'more change')} not shown`);
  lines.push(fence, '', '</details>');
  return lines;
}

/** The longest prefix of `blocks` whose lines fit in `room` characters. */
function fitting(blocks: string[][], room: number): string[][] {
  const out: string[][] = [];
  for (const block of blocks) {
    const n = size(block);
    if (n > room) break;
    room -= n;
    out.push(block);
  }
  return out;
}

const SYMBOL: Record<PlannedChange['action'], string> = { create: '+', update: '~', delete: '-', prerequisite: '+' };

/** A change's diff as the Markdown comment shows it, redacted: its title line, then its fields' lines (the HTML page shows the same). */
export function changeDiffLines(c: PlannedChange): string[] {
  return redacted(diffOf(c, reviewOf(c)));
}

/** A change in the diff fence: its fields' changes, and a create's reviewed fields as added lines. */
function diffOf(c: PlannedChange, review: Record<string, unknown> | undefined): string[] {
  const lines = [`${SYMBOL[c.action]} ${changeTitle(c)}`];
  for (const f of c.fields) lines.push(`  ${fieldLabel(f.pointer)}:`, ...fieldLines(f));
  if (review) lines.push(...reviewLines(review).map((line) => `+   ${line}`));
  return lines;
}

const yamlOf = (value: unknown) => (value === undefined ? '' : yaml().stringify(value, { lineWidth: 0 }));

/** A field's change as diff lines: set members added and removed, else a line diff of the YAML. */
function fieldLines(f: FieldChange): string[] {
  if (f.added || f.removed) return [...(f.removed ?? []).map((v) => `-   ${JSON.stringify(v)}`), ...(f.added ?? []).map((v) => `+   ${JSON.stringify(v)}`)];
  // A diff fence colours whole lines only: a long string's words change on a line of its own (~).
  if (wantsWordDiff(f.before, f.after)) return textChangeLines(f.before, f.after as string).map((l) => `${l.mark}   ${l.text}`);
  const lines: string[] = [];
  for (const part of diffLines(yamlOf(f.before), yamlOf(f.after))) {
    const mark = part.added ? '+' : part.removed ? '-' : ' ';
    for (const line of part.value.replace(/\n$/, '').split('\n')) lines.push(`${mark}   ${line}`);
  }
  return lines;
}
