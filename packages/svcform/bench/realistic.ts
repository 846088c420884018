/**
 * Rule manifests shaped like a real production rule set: an investigation guide of several KB of
 * markdown (headings, numbered steps, code spans and fences, quotes, unicode), multi-line EQL and
 * KQL queries with indented continuation lines, long descriptions, setup text, related
 * integrations, required fields and MITRE mappings; about 8 KB of YAML per rule, as a real rule
 * set with guides is (design.md "Scale").
 *
 * Files are written in the two ways such repositories come about: by hand (block scalars `|` and
 * `>-`, flow sequences, comments) and by a converter (the `yaml` package's defaults: long strings
 * folded into multi-line plain and double-quoted scalars, `|-`/`>-` blocks with indentation
 * indicators where needed). Deterministic for a given seed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { connectorManifests, GENERATED_CONNECTORS, seededRandom } from './generate.js';
import { ruleQueries } from '../src/kinds/rule/query.js';

const TACTICS = [
  ['TA0001', 'Initial Access'], ['TA0002', 'Execution'], ['TA0003', 'Persistence'], ['TA0004', 'Privilege Escalation'],
  ['TA0005', 'Defense Evasion'], ['TA0006', 'Credential Access'], ['TA0007', 'Discovery'], ['TA0008', 'Lateral Movement'],
  ['TA0010', 'Exfiltration'], ['TA0011', 'Command and Control'],
] as const;
const TECHNIQUES = [
  ['T1110', 'Brute Force'], ['T1059', 'Command and Scripting Interpreter'], ['T1053', 'Scheduled Task/Job'], ['T1548', 'Abuse Elevation Control Mechanism'],
  ['T1070', 'Indicator Removal'], ['T1003', 'OS Credential Dumping'], ['T1021', 'Remote Services'], ['T1071', 'Application Layer Protocol'],
] as const;
const PROCESSES = ['bash', 'sh', 'python3', 'perl', 'curl', 'wget', 'nc', 'socat', 'powershell.exe', 'rundll32.exe', 'regsvr32.exe', 'mshta.exe'];
const FIELDS = ['process.name', 'process.executable', 'process.args', 'user.name', 'host.name', 'source.ip', 'destination.ip', 'dns.question.name', 'file.path'];
const WORDS = [
  'adversary', 'persistence', 'credential', 'suspicious', 'parent', 'child', 'process', 'execution', 'network', 'connection', 'binary',
  'signed', 'unsigned', 'service', 'account', 'privileged', 'baseline', 'telemetry', 'endpoint', 'artifact', 'registry', 'scheduled',
  'interactive', 'remote', 'session', 'lateral', 'movement', 'tampering', 'evasion', 'obfuscated', 'command', 'line', 'argument',
];
const UNICODE = ['’', '“quoted”', '—', '→', 'naïve', 'café', 'Zürich', '日本語', 'ñ', '✓'];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)];
}

function sentence(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    let w = pick(rand, WORDS);
    if (rand() < 0.04) w = pick(rand, UNICODE);
    if (rand() < 0.05) w = `\`${pick(rand, FIELDS)}\``;
    if (rand() < 0.03) w = `"${w}"`;
    if (rand() < 0.02) w = `'${w}'`;
    out.push(w);
  }
  const s = out.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}

/** An investigation guide of a few KB, in the markdown real guides use. */
function guide(rand: () => number, name: string, field: string): string {
  const lines = [`## Triage and analysis`, '', `### Investigating ${name}`, ''];
  for (let p = 0; p < 3; p++) lines.push(sentence(rand, 40 + Math.floor(rand() * 30)), '');
  lines.push('#### Possible investigation steps', '');
  for (let i = 0; i < 8; i++) lines.push(`- ${sentence(rand, 15 + Math.floor(rand() * 15))}`);
  lines.push(`  - Examine \`${field}\` over the last 48 hours: ${sentence(rand, 8)}`, '');
  lines.push('```', `event.category:process and ${field}:"*${pick(rand, PROCESSES)}*"`, '  and not user.name:(root or "svc-backup")', '```', '');
  lines.push('### False positive analysis', '');
  for (let i = 0; i < 3; i++) lines.push(`- ${sentence(rand, 20)}`);
  lines.push('', '### Response and remediation', '');
  for (let i = 1; i <= 6; i++) lines.push(`${i}. ${sentence(rand, 12 + Math.floor(rand() * 12))}`);
  // Some guides end a line with a space or end with blank lines, as pasted text does.
  if (rand() < 0.3) lines.push('', `${sentence(rand, 6)} `);
  return lines.join('\n') + (rand() < 0.2 ? '\n\n' : '\n');
}

function eqlQuery(rand: () => number): string {
  const a = pick(rand, PROCESSES);
  const b = pick(rand, PROCESSES);
  return [
    `process where host.os.type == "linux" and event.type == "start" and event.action in ("exec", "exec_event") and`,
    `  process.parent.name in ("${a}", "${b}") and process.args : ("-c", "-e", "--eval") and`,
    `  not process.parent.executable : ("/usr/lib/*", "/opt/${pick(rand, WORDS)}/*") and`,
    `  not user.name in ("root", "svc-${pick(rand, WORDS)}")`,
  ].join('\n');
}

function kqlQuery(rand: () => number): string {
  return [
    `event.category:process and event.type:start and`,
    `  process.name:(${pick(rand, PROCESSES)} or ${pick(rand, PROCESSES)}) and`,
    `  not process.parent.name:"${pick(rand, PROCESSES)}"`,
  ].join('\n');
}

/** One rule as the object its manifest declares. */
export function realisticRule(index: number, seed = 1): Record<string, any> {
  const rand = seededRandom(seed * 7_919 + index);
  const [tacticId, tacticName] = pick(rand, TACTICS);
  const [techId, techName] = pick(rand, TECHNIQUES);
  const field = pick(rand, FIELDS);
  const proc = pick(rand, PROCESSES);
  const name = `${pick(rand, ['Unusual', 'Suspicious', 'Rare', 'Potential'])} ${proc} ${pick(rand, WORDS)} via ${pick(rand, WORDS)} #${index}`;
  const type = ['eql', 'query', 'eql', 'new_terms', 'threshold'][index % 5];
  const spec: Record<string, any> = { type, name, description: sentence(rand, 35 + Math.floor(rand() * 30)) };
  spec.severity = pick(rand, ['low', 'medium', 'high', 'critical']);
  spec.risk_score = { low: 21, medium: 47, high: 73, critical: 99 }[spec.severity as string];
  spec.enabled = rand() < 0.7;
  spec.index = ['logs-endpoint.events.process-*', 'auditbeat-*', 'logs-system.auth-*'].slice(0, 1 + Math.floor(rand() * 3));
  if (type === 'eql') {
    spec.language = 'eql';
    spec.query = eqlQuery(rand);
  } else {
    spec.query = kqlQuery(rand);
  }
  if (type === 'new_terms') {
    spec.new_terms_fields = [field, 'host.id'];
    spec.history_window_start = 'now-10d';
  }
  if (type === 'threshold') spec.threshold = { field: [field], value: 5 + Math.floor(rand() * 50) };
  spec.interval = pick(rand, ['5m', '10m', '1h']);
  spec.from = 'now-9m';
  spec.max_signals = pick(rand, [100, 1000]);
  spec.timestamp_override = 'event.ingested';
  spec.license = 'Elastic License v2';
  spec.author = ['Elastic', 'SOC Detection Engineering'];
  spec.tags = ['Domain: Endpoint', 'OS: Linux', 'Use Case: Threat Detection', `Tactic: ${tacticName}`, 'Data Source: Elastic Defend', 'managed-by:svcform'];
  spec.references = [`https://attack.mitre.org/techniques/${techId}/`, `https://www.example.org/research/${pick(rand, WORDS)}-${index}`];
  spec.false_positives = [sentence(rand, 18)];
  spec.related_integrations = [{ package: 'endpoint', version: '^8.2.0' }, { package: 'auditd_manager', version: '^1.0.0', integration: 'auditd' }];
  spec.required_fields = [
    { name: field, type: 'keyword' },
    { name: 'event.type', type: 'keyword' },
    { name: 'host.os.type', type: 'keyword' },
  ];
  spec.setup = `## Setup\n\nThis rule requires data coming in from ${pick(rand, ['Elastic Defend', 'Auditbeat', 'Auditd Manager'])}.\n\n${sentence(rand, 30)}\n`;
  spec.note = guide(rand, name, field);
  spec.threat = [
    {
      framework: 'MITRE ATT&CK',
      tactic: { id: tacticId, name: tacticName, reference: `https://attack.mitre.org/tactics/${tacticId}/` },
      technique: [{ id: techId, name: techName, reference: `https://attack.mitre.org/techniques/${techId}/` }],
    },
  ];
  if (index % 3 === 0) {
    spec.actions = [
      {
        id: GENERATED_CONNECTORS[index % 2],
        group: 'default',
        params: { message: `{{context.rule.name}} fired: {{state.signals_count}} alert(s)\nOpen: {{{context.results_link}}}` },
        frequency: { summary: true, notifyWhen: 'onActiveAlert', throttle: null },
      },
    ];
  }
  return { apiVersion: 'svcform/v1', kind: 'Rule', metadata: { name: `real-${String(index).padStart(5, '0')}-${tacticName.toLowerCase().replace(/ /g, '-')}` }, spec };
}

/** The distinct queries of the first `rules` realistic rules, by language, in the order first met (bench:queries, the query reader tests). */
export function realisticQueries(rules = 2068): Map<string, string[]> {
  const distinct = new Map<string, Set<string>>();
  for (let i = 0; i < rules; i++) {
    for (const q of ruleQueries(realisticRule(i).spec)) {
      if (!distinct.has(q.language)) distinct.set(q.language, new Set());
      distinct.get(q.language)!.add(q.text);
    }
  }
  return new Map([...distinct].map(([language, set]) => [language, [...set]]));
}

/** The manifest text of one document in one of the two writing styles. */
export function realisticRuleYaml(rule: Record<string, any>, style: 'hand' | 'converter'): string {
  if (style === 'converter') return stringify(rule);
  return stringify(rule, { lineWidth: 0, blockQuote: 'literal', flowCollectionPadding: false });
}

export interface RealisticRepository {
  dir: string;
  files: string[];
  bytes: number;
  rules: number;
}

/**
 * Writes `rules` rules over `files` files (default 42, as the real set came) under `dir/rules`,
 * alternating the two styles by file, plus the connectors the actions name. `change` alters
 * every rule's description (for full-update runs).
 */
export function writeRealisticRepository(dir: string, options: { rules: number; files?: number; seed?: number; change?: string }): RealisticRepository {
  const rulesDir = join(dir, 'rules');
  mkdirSync(rulesDir, { recursive: true });
  const fileCount = options.files ?? 42;
  const perFile = Math.ceil(options.rules / fileCount);
  const files: string[] = [];
  let bytes = 0;
  for (let f = 0; f * perFile < options.rules; f++) {
    const docs: string[] = [];
    for (let i = f * perFile; i < Math.min(options.rules, (f + 1) * perFile); i++) {
      const rule = realisticRule(i, options.seed);
      if (options.change) rule.spec.description = `${rule.spec.description} ${options.change}`;
      docs.push(realisticRuleYaml(rule, f % 2 === 0 ? 'hand' : 'converter'));
    }
    const file = join(rulesDir, `rules-${String(f).padStart(3, '0')}.yaml`);
    const text = `# Generated rule set, file ${f}\n` + docs.join('---\n');
    writeFileSync(file, text);
    files.push(file);
    bytes += Buffer.byteLength(text);
  }
  const connectors = join(dir, 'connectors.yaml');
  writeFileSync(connectors, connectorManifests());
  files.push(connectors);
  return { dir, files, bytes, rules: options.rules };
}
