import { stringify } from 'yaml';
import { fieldLabel } from '../common/pointer.js';
import type { Plan } from '../engine/plan.js';
import { redactor } from '../manifest/redact.js';
import { changeTitle, summaryLine } from './text.js';

/** A plan for a pull-request comment: a summary table, then one collapsible diff per change. */
export function renderPlanMarkdown(plan: Plan, target: string): string {
  const s = plan.summary;
  const out: string[] = [
    '### svcform plan',
    '',
    `Target: \`${target}\``,
    '',
    '| create | update | delete | unchanged | unmanaged |',
    '|---:|---:|---:|---:|---:|',
    `| ${s.create} | ${s.update} | ${s.delete} | ${s.unchanged} | ${s.unmanaged} |`,
    '',
  ];
  if (plan.errors.length) {
    out.push('**Errors**', '');
    for (const e of plan.errors) out.push(`- ${e.source ? `\`${e.source.file}:${e.source.line}\` ` : ''}${e.subject}: ${e.message}`);
    out.push('');
  }
  for (const c of plan.changes) {
    const icon = c.action === 'delete' ? '🗑️' : c.action === 'update' ? '✏️' : '➕';
    if (c.fields.length === 0) {
      out.push(`- ${icon} ${changeTitle(c)}`);
      continue;
    }
    out.push(`<details><summary>${icon} ${changeTitle(c)}</summary>`, '', '```diff');
    for (const f of c.fields) {
      if (f.added || f.removed) {
        out.push(`  ${fieldLabel(f.pointer)}:`);
        for (const v of f.removed ?? []) out.push(`-   ${JSON.stringify(v)}`);
        for (const v of f.added ?? []) out.push(`+   ${JSON.stringify(v)}`);
        continue;
      }
      out.push(`  ${fieldLabel(f.pointer)}:`);
      if (f.before !== undefined) for (const l of stringify(f.before, { lineWidth: 0 }).trimEnd().split('\n')) out.push(`-   ${l}`);
      if (f.after !== undefined) for (const l of stringify(f.after, { lineWidth: 0 }).trimEnd().split('\n')) out.push(`+   ${l}`);
    }
    out.push('```', '', '</details>');
  }
  out.push('', summaryLine(plan));
  return redactor.redact(out.join('\n'));
}
