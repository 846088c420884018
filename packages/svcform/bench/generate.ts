/**
 * Generators of realistic manifests for benchmarks: detection rules shaped like a real rule set
 * (investigation guide, MITRE mappings, tags, actions, required fields), deterministic for a given
 * seed so that runs compare.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Connector ids the generated rules' actions name; writeRuleRepository declares them. */
export const GENERATED_CONNECTORS = ['soc-chat', 'soc-pagerduty', 'soc-alert-history'] as const;

/** A small deterministic generator (mulberry32): the same seed gives the same manifests. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TACTICS = [
  { id: 'TA0001', name: 'Initial Access', slug: 'initial-access' },
  { id: 'TA0002', name: 'Execution', slug: 'execution' },
  { id: 'TA0003', name: 'Persistence', slug: 'persistence' },
  { id: 'TA0004', name: 'Privilege Escalation', slug: 'privilege-escalation' },
  { id: 'TA0005', name: 'Defense Evasion', slug: 'defense-evasion' },
  { id: 'TA0006', name: 'Credential Access', slug: 'credential-access' },
  { id: 'TA0007', name: 'Discovery', slug: 'discovery' },
  { id: 'TA0008', name: 'Lateral Movement', slug: 'lateral-movement' },
  { id: 'TA0010', name: 'Exfiltration', slug: 'exfiltration' },
  { id: 'TA0011', name: 'Command and Control', slug: 'command-and-control' },
];

const TECHNIQUES = [
  { id: 'T1110', name: 'Brute Force', sub: { id: 'T1110.001', name: 'Password Guessing' } },
  { id: 'T1059', name: 'Command and Scripting Interpreter', sub: { id: 'T1059.004', name: 'Unix Shell' } },
  { id: 'T1053', name: 'Scheduled Task/Job', sub: { id: 'T1053.003', name: 'Cron' } },
  { id: 'T1548', name: 'Abuse Elevation Control Mechanism', sub: { id: 'T1548.001', name: 'Setuid and Setgid' } },
  { id: 'T1070', name: 'Indicator Removal', sub: { id: 'T1070.002', name: 'Clear Linux or Mac System Logs' } },
  { id: 'T1003', name: 'OS Credential Dumping', sub: { id: 'T1003.008', name: '/etc/passwd and /etc/shadow' } },
  { id: 'T1021', name: 'Remote Services', sub: { id: 'T1021.004', name: 'SSH' } },
  { id: 'T1048', name: 'Exfiltration Over Alternative Protocol', sub: { id: 'T1048.003', name: 'Exfiltration Over Unencrypted Non-C2 Protocol' } },
  { id: 'T1071', name: 'Application Layer Protocol', sub: { id: 'T1071.004', name: 'DNS' } },
];

const SUBJECTS = ['SSH', 'sudo', 'cron', 'systemd unit', 'kernel module', 'shell history', 'DNS tunnel', 'reverse shell', 'curl to paste site', 'shadow file', 'authorized_keys', 'LD_PRELOAD'];
const VERBS = ['unusual', 'suspicious', 'rare', 'first-seen', 'excessive', 'unexpected'];
const SEVERITIES = [
  { severity: 'low', risk: 21 },
  { severity: 'medium', risk: 47 },
  { severity: 'high', risk: 73 },
  { severity: 'critical', risk: 99 },
];
const OSES = ['Linux', 'macOS', 'Windows'];
const INDICES = ['logs-endpoint.events.process-*', 'logs-system.auth-*', 'logs-network_traffic.dns-*', 'auditbeat-*'];
const FIELDS = ['process.name', 'process.executable', 'user.name', 'host.name', 'source.ip', 'destination.ip', 'dns.question.name', 'file.path'];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)];
}

function quote(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/**
 * One Rule manifest (one YAML document, without the `---` separator), about 1.5 KB: the size of a
 * rule with a short investigation guide. Types cycle through query, eql, threshold and new_terms.
 */
export function ruleManifest(index: number, seed = 1): string {
  const rand = seededRandom(seed * 1_000_003 + index);
  const tactic = pick(rand, TACTICS);
  const technique = pick(rand, TECHNIQUES);
  const subject = pick(rand, SUBJECTS);
  const verb = pick(rand, VERBS);
  const sev = pick(rand, SEVERITIES);
  const os = pick(rand, OSES);
  const field = pick(rand, FIELDS);
  const index1 = pick(rand, INDICES);
  const id = `gen-${tactic.slug}-${String(index).padStart(5, '0')}`;
  const name = `${verb[0].toUpperCase()}${verb.slice(1)} ${subject} activity #${index}`;
  const kind = index % 4;
  const typeLines =
    kind === 0
      ? ['  type: query', `  query: ${quote(`event.category:process and process.name:${subject.split(' ')[0].toLowerCase()} and not user.name:root`)}`]
      : kind === 1
        ? ['  type: eql', '  language: eql', `  query: ${quote(`process where event.type == "start" and process.parent.name == "${subject.split(' ')[0].toLowerCase()}"`)}`]
        : kind === 2
          ? ['  type: threshold', `  query: ${quote('event.category:authentication and event.outcome:failure')}`, '  threshold:', `    field: [${field}]`, `    value: ${10 + Math.floor(rand() * 90)}`]
          : ['  type: new_terms', `  query: ${quote(`event.category:process and host.os.type:${os.toLowerCase()}`)}`, `  new_terms_fields: [${field}, host.name]`, '  history_window_start: now-14d'];
  const lines = [
    'apiVersion: svcform/v1',
    'kind: Rule',
    'metadata:',
    `  name: ${id}`,
    `  labels: {team: soc, tactic: ${tactic.slug}}`,
    'spec:',
    ...typeLines,
    `  name: ${quote(name)}`,
    '  description: >-',
    `    Detects ${verb} ${subject} activity on ${os} hosts that matches the`,
    `    ${tactic.name.toLowerCase()} pattern seen in past incidents; generated rule ${index}.`,
    `  severity: ${sev.severity}`,
    `  risk_score: ${sev.risk}`,
    `  enabled: ${rand() < 0.8}`,
    `  index: [${index1}]`,
    `  interval: ${pick(rand, ['1m', '5m', '10m', '1h'])}`,
    '  from: now-9m',
    `  tags: [managed-by:svcform, ${quote(`Tactic: ${tactic.name}`)}, ${quote(`OS: ${os}`)}, ${quote(`Technique: ${technique.id}`)}]`,
    '  author: [SOC Detection Engineering]',
    '  references:',
    `    - https://attack.mitre.org/techniques/${technique.id}/`,
    '  false_positives:',
    `    - Administrators running ${subject} maintenance from the jump hosts.`,
    '  required_fields:',
    `    - {name: ${field}, type: keyword}`,
    '    - {name: host.name, type: keyword}',
    '  note: |',
    '    ## Triage',
    '',
    `    1. Check whether \`${field}\` belongs to an approved automation account.`,
    `    2. Look for other ${tactic.name.toLowerCase()} alerts on the same \`host.name\` in the last 24 hours.`,
    '    3. Escalate to P2 when the host is a production server.',
    '',
    '    ## Response',
    '',
    '    - Isolate the host if the activity is confirmed malicious.',
    '  threat:',
    '    - framework: MITRE ATT&CK',
    '      tactic:',
    `        id: ${tactic.id}`,
    `        name: ${tactic.name}`,
    `        reference: https://attack.mitre.org/tactics/${tactic.id}/`,
    '      technique:',
    `        - id: ${technique.id}`,
    `          name: ${technique.name}`,
    `          reference: https://attack.mitre.org/techniques/${technique.id}/`,
    '          subtechnique:',
    `            - id: ${technique.sub.id}`,
    `              name: ${quote(technique.sub.name)}`,
    `              reference: https://attack.mitre.org/techniques/${technique.sub.id.replace('.', '/')}/`,
    '  actions:',
    `    - id: ${GENERATED_CONNECTORS[index % 2]}`,
    '      group: default',
    '      params:',
    `        message: ${quote('{{context.rule.name}} fired: {{state.signals_count}} alert(s)')}`,
    '      frequency: {summary: true, notifyWhen: onActiveAlert, throttle: null}',
  ];
  return lines.join('\n') + '\n';
}

/** Connector manifests for the ids the generated rules name, so that their references resolve. */
export function connectorManifests(): string {
  return [
    ['apiVersion: svcform/v1', 'kind: Connector', 'metadata:', '  name: soc-chat', 'spec:', '  name: SOC chat', '  connector_type_id: .chat', '  secrets:', '    webhookUrl: https://chat.example.com/hooks/T000/B000'],
    ['apiVersion: svcform/v1', 'kind: Connector', 'metadata:', '  name: soc-pagerduty', 'spec:', '  name: SOC paging', '  connector_type_id: .webhook', '  config:', '    url: https://events.paging.example.com/enqueue', '    method: post'],
    ['apiVersion: svcform/v1', 'kind: Connector', 'metadata:', '  name: soc-alert-history', 'spec:', '  name: SOC alert history', '  connector_type_id: .index', '  config:', '    index: soc-alert-history'],
  ]
    .map((lines) => lines.join('\n') + '\n')
    .join('---\n');
}

export interface RuleRepositoryOptions {
  rules: number;
  /** Rule files to spread the rules over (multi-document files). */
  files: number;
  seed?: number;
}

export interface RuleRepository {
  dir: string;
  files: string[];
  bytes: number;
}

/** Writes `rules` rule manifests over `files` files under `dir/rules`, and the connectors they name. */
export function writeRuleRepository(dir: string, options: RuleRepositoryOptions): RuleRepository {
  const rulesDir = join(dir, 'rules');
  mkdirSync(rulesDir, { recursive: true });
  const files: string[] = [];
  let bytes = 0;
  const perFile = Math.ceil(options.rules / options.files);
  for (let f = 0; f * perFile < options.rules; f++) {
    const docs: string[] = [];
    for (let i = f * perFile; i < Math.min(options.rules, (f + 1) * perFile); i++) docs.push(ruleManifest(i, options.seed));
    const file = join(rulesDir, `rules-${String(f).padStart(4, '0')}.yaml`);
    const text = docs.join('---\n');
    writeFileSync(file, text);
    files.push(file);
    bytes += Buffer.byteLength(text);
  }
  const connectors = join(dir, 'connectors.yaml');
  const text = connectorManifests();
  writeFileSync(connectors, text);
  files.push(connectors);
  bytes += Buffer.byteLength(text);
  return { dir, files, bytes };
}
