// The line diff alone: the package's index loads nineteen modules (17-25 ms to import against 10-14 ms).
import { diffLines } from 'diff/lib/diff/line.js';
import { yaml } from '../common/yaml.js';
import type { ApplyReport, ChangeResult } from '../engine/apply.js';
import { fieldLabel } from '../common/pointer.js';
import type { FieldChange } from '../engine/diff.js';
import type { Plan, PlannedChange, PlanWarning, UnmanagedObject } from '../engine/plan.js';
import { redactor } from '../manifest/redact.js';
import type { Colors } from './color.js';
import { groupRepeats } from '../common/group-repeats.js';
import { coverageDiffLines } from './coverage.js';
import { reviewLines, reviewOf, textChangeLines, wantsWordDiff, WORD_MARKERS } from './review.js';

const SYMBOL: Record<PlannedChange['action'], string> = { create: '+', update: '~', delete: '-', prerequisite: '+' };

export function changeTitle(c: PlannedChange): string {
  if (c.action === 'prerequisite') return `ensure ${c.name} (space ${c.space})`;
  return `${c.action} ${c.kind}/${c.name} (space ${c.space})${c.reason ? ` [${c.reason}]` : ''}`;
}

function yamlOf(value: unknown): string {
  return yaml().stringify(value, { lineWidth: 0 }).replace(/\n$/, '');
}

/** Lines of a unified diff of one field's YAML, before against after. */
function fieldDiff(f: FieldChange, col: Colors): string[] {
  const label = fieldLabel(f.pointer);
  if (f.added || f.removed) {
    const lines = [`${label}:`];
    for (const v of f.removed ?? []) lines.push(col.red(`  - ${JSON.stringify(v)}`));
    for (const v of f.added ?? []) lines.push(col.green(`  + ${JSON.stringify(v)}`));
    return lines;
  }
  if (wantsWordDiff(f.before, f.after)) {
    const style = { removed: (t: string) => col.red(WORD_MARKERS.removed(t)), added: (t: string) => col.green(WORD_MARKERS.added(t)) };
    const paint = { ' ': col.dim, '-': col.red, '+': col.green, '~': (t: string) => t };
    return [`${label}:`, ...textChangeLines(f.before, f.after as string, style).map((l) => paint[l.mark](`  ${l.mark} ${l.text}`))];
  }
  const scalar = (v: unknown) => v === undefined || v === null || typeof v !== 'object';
  if (scalar(f.before) && scalar(f.after)) {
    const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
    return [`${label}: ${col.red(show(f.before))} -> ${col.green(show(f.after))}`];
  }
  const before = f.before === undefined ? '' : yamlOf(f.before) + '\n';
  const after = f.after === undefined ? '' : yamlOf(f.after) + '\n';
  const lines = [`${label}:`];
  for (const part of diffLines(before, after)) {
    const chunk = part.value.replace(/\n$/, '').split('\n');
    for (const line of chunk) {
      if (part.added) lines.push(col.green(`  + ${line}`));
      else if (part.removed) lines.push(col.red(`  - ${line}`));
      else lines.push(col.dim(`    ${line}`));
    }
  }
  return lines;
}

export interface TextOptions {
  /** `--show-unmanaged`: name every live object outside every manage scope. */
  showUnmanaged?: boolean;
}

/** One unmanaged object as a reader names it: `Kind/name (space S)`, with the server's id where it differs. */
export function unmanagedTitle(o: UnmanagedObject): string {
  return `${o.kind}/${o.name} (space ${o.space}${o.id !== undefined ? `, id ${o.id}` : ''})${o.kept ? `: ${o.kept}` : ''}`;
}

export function renderPlanText(plan: Plan, col: Colors, options: TextOptions = {}): string {
  const out: string[] = [];
  const change = (c: PlannedChange, indent: string) => {
    const sym = SYMBOL[c.action];
    const paint = c.action === 'delete' ? col.red : c.action === 'update' ? col.yellow : col.green;
    out.push(indent + paint(`${sym} ${changeTitle(c)}`));
    for (const f of c.fields) for (const line of fieldDiff(f, col)) out.push(`${indent}    ${line}`);
    const review = reviewOf(c);
    if (review) for (const line of reviewLines(review)) out.push(indent + col.green(`    ${line}`));
  };
  // The changes of one manifest that names several spaces (metadata.spaces) are shown together
  // under it, where the first of them comes.
  const groups = fannedOut(plan.changes);
  for (const c of plan.changes) {
    const group = groups.get(c);
    if (!group) change(c, '');
    else if (group[0] === c) {
      out.push(fanOutTitle(c));
      for (const member of group) change(member, '  ');
    }
  }
  if (options.showUnmanaged && plan.unmanaged?.length) {
    if (out.length) out.push('');
    out.push(col.dim(`Unmanaged, outside every manage scope and left alone (${plan.unmanaged.length}):`));
    for (const o of plan.unmanaged) out.push(col.dim(`  ${unmanagedTitle(o)}`));
  }
  const coverage = coverageDiffLines(plan.coverage, col);
  if (coverage.length) {
    if (out.length) out.push('');
    out.push(...coverage);
  }
  if (plan.notices?.length) {
    if (out.length) out.push('');
    for (const n of plan.notices) out.push(col.dim(`note: ${n.subject}: ${n.message}`));
  }
  if (plan.warnings?.length) {
    if (out.length) out.push('');
    out.push(...warningLines(plan, col));
  }
  if (plan.errors.length) {
    if (out.length) out.push('');
    for (const e of plan.errors) out.push(col.red(`error: ${e.source ? `${e.source.file}:${e.source.line}:${e.source.col}: ` : ''}${e.subject}: ${e.message}`));
  }
  if (out.length) out.push('');
  out.push(summaryLine(plan));
  return redactor.redact(out.join('\n'));
}

/** Each change of a fanned-out manifest (PlannedChange.fanOut), with every change of that manifest in plan order. */
function fannedOut(changes: readonly PlannedChange[]): Map<PlannedChange, PlannedChange[]> {
  const byManifest = new Map<string, PlannedChange[]>();
  const out = new Map<PlannedChange, PlannedChange[]>();
  for (const c of changes) {
    if (!c.fanOut || !c.source) continue;
    const key = `${c.kind}\u0000${c.name}\u0000${c.source.file}:${c.source.line}:${c.source.col}`;
    const group = byManifest.get(key) ?? [];
    byManifest.set(key, group);
    group.push(c);
    out.set(c, group);
  }
  return out;
}

/** The header of a fanned-out manifest's changes: the object, its spaces and where it is declared. */
export function fanOutTitle(c: PlannedChange): string {
  const at = c.source ? ` (${c.source.file}:${c.source.line}:${c.source.col})` : '';
  return `${c.kind}/${c.name}: one manifest in spaces ${c.fanOut!.spaces.join(', ')}${at}`;
}

/** How many other objects a grouped warning names before it only counts them. */
const GROUP_NAMES_SHOWN = 3;

/**
 * The plan's warnings for reading, those with the same message (many rules naming one missing
 * data view) as one whose subject counts and names the others: a plan of 2,000 rules against a
 * space without that data view says so once. The JSON plan keeps every warning.
 */
export function groupedWarnings(plan: Plan): PlanWarning[] {
  return groupRepeats(plan.warnings ?? [], (w) => w.message).map(({ first, others }) => {
    if (others.length === 0) return first;
    const named = others.slice(0, GROUP_NAMES_SHOWN).map((w) => w.subject).join(', ');
    const more = others.length > GROUP_NAMES_SHOWN ? ', ...' : '';
    return { ...first, subject: `${first.subject} and ${others.length} more (${named}${more})` };
  });
}

/** The plan's warnings, grouped, one line each (also what apply --quiet and --json print on stderr). */
export function warningLines(plan: Plan, col: Colors): string[] {
  return groupedWarnings(plan).map((w) => redactor.redact(col.yellow(`warning: ${w.source ? `${w.source.file}:${w.source.line}:${w.source.col}: ` : ''}${w.subject}: ${w.message}`)));
}

export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  const unmanaged = s.unmanaged ? `; ${s.unmanaged} unmanaged object${s.unmanaged === 1 ? '' : 's'} left alone` : '';
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${s.unchanged} unchanged${unmanaged}.`;
}

export function renderResultLine(r: ChangeResult, col: Colors): string {
  const title = changeTitle(r.change);
  if (r.outcome === 'done') return redactor.redact(`${col.green('✓')} ${title} ${col.dim(`(${r.ms} ms)`)}${r.note ? ` ${col.dim(`[${r.note}]`)}` : ''}`);
  if (r.outcome === 'skipped' && r.blockedBy === 'interrupted') return redactor.redact(`${col.yellow('○')} ${title}: not started, apply was interrupted`);
  if (r.outcome === 'skipped') return redactor.redact(`${col.yellow('○')} ${title}: skipped, depends on ${r.blockedBy} which failed`);
  return redactor.redact(`${col.red('✗')} ${title}: ${r.error}`);
}

export function renderApplySummary(report: ApplyReport, col: Colors): string {
  const line = `Apply: ${report.done} done, ${report.failed} failed, ${report.skipped} skipped.`;
  const failures = report.results.filter((r) => r.outcome === 'failed').map((r) => renderResultLine(r, col));
  return redactor.redact([...(report.failed ? ['', 'Failed:', ...failures] : []), '', report.failed ? col.red(line) : col.green(line)].join('\n'));
}
