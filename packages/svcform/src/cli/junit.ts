import type { RuleResult } from './test-run.js';

/**
 * Test results as JUnit XML, the format CI systems read: one <testsuite> per rule (named
 * Rule/<name>), one <testcase> per case, a <failure> with the first difference for each failed one.
 */

function escapeXml(text: string): string {
  // Control characters other than tab and line breaks are not allowed in XML 1.0 at all.
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function junitXml(results: RuleResult[]): string {
  const total = results.reduce((n, r) => n + r.cases.length, 0);
  const failed = results.reduce((n, r) => n + r.cases.filter((c) => !c.passed).length, 0);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="svcform test" tests="${total}" failures="${failed}" errors="0">`];
  for (const r of results) {
    const suite = escapeXml(`Rule/${r.rule}`);
    const failures = r.cases.filter((c) => !c.passed).length;
    lines.push(`  <testsuite name="${suite}" tests="${r.cases.length}" failures="${failures}" errors="0" skipped="0" file="${escapeXml(r.file)}">`);
    for (const c of r.cases) {
      const open = `    <testcase classname="${suite}" name="${escapeXml(c.name)}" file="${escapeXml(r.file)}" line="${c.line}"`;
      if (c.passed) lines.push(`${open}/>`);
      else {
        lines.push(`${open}>`);
        lines.push(`      <failure message="${escapeXml(c.message ?? 'failed')}" type="assertion">${escapeXml(c.message ?? 'failed')}</failure>`);
        lines.push('    </testcase>');
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}
