import type { Covered, CoverageDiff, Matrix } from '../kinds/rule/coverage.js';
import type { Colors } from './color.js';
import { codeSpan, inlineText } from './markdown-syntax.js';

/**
 * ATT&CK coverage for reading: a plan's added and removed tactics and techniques (text and
 * Markdown), and `svcform coverage`'s matrix (text and Markdown; its JSON is the Matrix itself).
 */

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function coveredLabel(c: Covered): string {
  const under = c.level === 'technique' && c.tactics?.length ? ` (${c.tactics.join(', ')})` : '';
  return `${c.level} ${c.id} ${c.name}${under}`;
}

function diffHeadline(diff: CoverageDiff): string {
  const parts = [diff.added.length ? `${diff.added.length} added` : '', diff.removed.length ? `${diff.removed.length} removed` : ''].filter(Boolean);
  return `ATT&CK coverage of enabled rules: ${parts.join(', ')}`;
}

/** The text plan's section: nothing when the plan changes no coverage. */
export function coverageDiffLines(diff: CoverageDiff | undefined, col: Colors): string[] {
  if (!diff || diff.added.length + diff.removed.length === 0) return [];
  return [diffHeadline(diff), ...diff.added.map((c) => col.green(`  + ${coveredLabel(c)}`)), ...diff.removed.map((c) => col.red(`  - ${coveredLabel(c)}`))];
}

/** The Markdown plan's section (a PR comment): one list item per tactic or technique. */
export function coverageDiffMarkdown(diff: CoverageDiff | undefined): string[] {
  if (!diff || diff.added.length + diff.removed.length === 0) return [];
  const item = (sign: string, c: Covered) => `- ${sign} ${c.level} ${codeSpan(c.id)} ${inlineText(c.name)}${c.level === 'technique' && c.tactics?.length ? ` (${c.tactics.map(codeSpan).join(', ')})` : ''}`;
  return [`**${inlineText(diffHeadline(diff))}**`, '', ...diff.added.map((c) => item('➕ added', c)), ...diff.removed.map((c) => item('➖ **removed**', c)), ''];
}

function matrixHeadline(m: Matrix): string {
  const techniques = new Set(m.tactics.flatMap((t) => t.techniques.map((x) => x.id))).size;
  const extra = [m.unmapped ? `${m.unmapped} without an ATT&CK entry` : '', m.disabled ? `${m.disabled} disabled, not counted` : ''].filter(Boolean);
  return `ATT&CK coverage: ${plural(m.enabled, 'enabled rule')}, ${plural(m.tactics.length, 'tactic')}, ${plural(techniques, 'technique')}${extra.length ? ` (${extra.join('; ')})` : ''}`;
}

/** The matrix as text: one section per tactic, each technique and subtechnique with its count of enabled rules. */
export function matrixText(m: Matrix): string {
  const out = [matrixHeadline(m)];
  for (const t of m.tactics) {
    out.push('', `${t.id} ${t.name}: ${plural(t.rules, 'rule')}`);
    for (const tech of t.techniques) {
      out.push(`  ${tech.id} ${tech.name}: ${tech.rules}`);
      for (const sub of tech.subtechniques) out.push(`    ${sub.id} ${sub.name}: ${sub.rules}`);
    }
  }
  return out.join('\n');
}

/** The matrix as Markdown: a heading and a table per tactic. */
export function matrixMarkdown(m: Matrix): string {
  const out = ['### ATT&CK coverage', '', inlineText(matrixHeadline(m))];
  for (const t of m.tactics) {
    out.push('', `#### ${codeSpan(t.id)} ${inlineText(t.name)} (${plural(t.rules, 'rule')})`, '', '| technique | name | rules |', '|---|---|---:|');
    for (const tech of t.techniques) {
      out.push(`| ${codeSpan(tech.id)} | ${cell(tech.name)} | ${tech.rules} |`);
      for (const sub of tech.subtechniques) out.push(`| ${codeSpan(sub.id)} | ↳ ${cell(sub.name)} | ${sub.rules} |`);
    }
  }
  return out.join('\n');
}

/** Table cells: inlineText escapes the `|` that would end one. */
const cell = inlineText;
