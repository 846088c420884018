import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temporary directory holding the given files (paths relative to it, `/`-separated). */
export function repo(files: Record<string, string>, prefix = 'svcform-repo-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFiles(dir, files);
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    const full = join(dir, ...name.split('/'));
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

export function connectorYaml(name: string): string {
  return ['apiVersion: svcform/v1', 'kind: Connector', `metadata: {name: ${name}}`, `spec: {name: ${name} log, connector_type_id: .server-log}`, ''].join('\n');
}

/** A query rule; with `connector`, one action that notifies through it. */
export function ruleYaml(name: string, connector?: string, tags: string[] = []): string {
  const lines = ['apiVersion: svcform/v1', 'kind: Rule', `metadata: {name: ${name}}`, 'spec:', '  type: query', `  name: ${name}`, '  description: d', '  severity: low', '  risk_score: 1', "  query: 'a:b'"];
  if (tags.length) lines.push(`  tags: [${tags.join(', ')}]`);
  if (connector) lines.push('  actions:', `    - id: ${connector}`, '      group: default', '      params: {message: hi}');
  return lines.join('\n') + '\n';
}

/**
 * A kuery rule written as real ones are: its description a literal block and its query a folded
 * one, each given as its lines (with two lines of description, the query starts on line 15).
 */
export function blockRuleYaml(name: string, description: string[], query: string[]): string {
  const block = (lines: string[]) => lines.map((l) => `    ${l}\n`).join('');
  return `apiVersion: svcform/v1
kind: Rule
metadata:
  name: ${name}
spec:
  type: query
  name: ${name}
  description: |
${block(description)}  severity: low
  risk_score: 21
  language: kuery
  query: >-
${block(query)}  index:
    - logs-*
`;
}
