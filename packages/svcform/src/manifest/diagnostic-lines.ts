import { groupRepeats } from '../common/group-repeats.js';
import type { Diagnostic } from './types.js';

/** How findings read on a terminal and in annotations: validate, test, coverage, plan and apply alike. */

/** Places of a group's other findings named on its line; the rest are counted. */
const GROUP_PLACES_SHOWN = 3;

/**
 * Diagnostics as text lines and annotations show them, in order: each finding on its own, except
 * that findings of one group (Diagnostic.group: one unknown field in 40 rules) are one, the first
 * in full with `more` counting the others and naming the first few. JSON output keeps every finding.
 */
export function foldDiagnostics(diagnostics: readonly Diagnostic[]): Array<{ diagnostic: Diagnostic; more: string }> {
  const lines = groupRepeats(diagnostics, (d) => (d.group === undefined ? undefined : `${d.severity}\u0000${d.group}`));
  return lines.map(({ first, others }) => {
    if (others.length === 0) return { diagnostic: first, more: '' };
    const places = others.slice(0, GROUP_PLACES_SHOWN).map((d) => `${d.pos.file}:${d.pos.line}`);
    const rest = others.length - places.length;
    return { diagnostic: first, more: ` [and ${others.length} more: ${places.join(', ')}${rest > 0 ? ', …; --json lists every one' : ''}]` };
  });
}

/** The text lines of diagnostics (foldDiagnostics). */
export function formatDiagnostics(diagnostics: readonly Diagnostic[]): string[] {
  return foldDiagnostics(diagnostics).map(({ diagnostic, more }) => formatDiagnostic(diagnostic) + more);
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = `${d.pos.file}:${d.pos.line}:${d.pos.col}`;
  const tag = d.severity === 'warning' ? 'warning: ' : '';
  return `${where}: ${tag}${d.subject ? `${d.subject}: ` : ''}${d.message}`;
}
