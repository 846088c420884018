import type { EmulatorContext } from '../../context.js';

/**
 * The prebuilt rule package the emulator ships, in two releases. Release 1 is installed by
 * default; `PUT /__emulator/prebuilt-package {"release": 2}` (or the `prebuiltRelease` option)
 * ships release 2, the way a new detection-rules package reaches a real server. Every version of
 * every asset is kept, because the server compares an installed prebuilt rule with the asset of
 * its own version (its base) to tell whether it is customised (calculate_is_customized.ts).
 */

export interface PrebuiltAsset {
  /** The first package release that ships this version. */
  release: number;
  rule: Record<string, any>;
}

const ENCODED_POWERSHELL = '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b01';
const TEMP_DIR_PROCESS = '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b02';
const FAILED_LOGINS = '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b03';
const NEW_SERVICE = '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b04';

const license = 'Vendor License v2';
const execution = { framework: 'MITRE ATT&CK', tactic: { id: 'TA0002', name: 'Execution', reference: 'https://attack.mitre.org/tactics/TA0002/' } };

const powershellV3 = {
  rule_id: ENCODED_POWERSHELL,
  type: 'query',
  name: 'Encoded PowerShell command line',
  description: 'PowerShell started with an encoded command, a common way to hide malicious scripts.',
  severity: 'medium',
  risk_score: 47,
  version: 3,
  index: ['logs-endpoint.events.process-*', 'winlogbeat-*'],
  query: 'process.name:"powershell.exe" and process.args:("-enc" or "-encodedcommand")',
  tags: ['Domain: Endpoint', 'OS: Windows', 'Tactic: Execution'],
  author: ['svc'],
  license,
  threat: [execution],
};

const tempDirV5 = {
  rule_id: TEMP_DIR_PROCESS,
  type: 'eql',
  name: 'Process started from a temporary directory',
  description: 'An executable ran from a temporary directory right after it was written there.',
  severity: 'low',
  risk_score: 21,
  version: 5,
  index: ['logs-endpoint.events.*'],
  language: 'eql',
  query: 'sequence by host.id with maxspan=1m [file where event.type == "creation" and file.path : "/tmp/*"] [process where event.type == "start" and process.executable : "/tmp/*"]',
  tags: ['Domain: Endpoint', 'OS: Linux', 'Tactic: Execution'],
  author: ['svc'],
  license,
};

const failedLoginsV2 = {
  rule_id: FAILED_LOGINS,
  type: 'threshold',
  name: 'Many failed logins from one source',
  description: 'One source address failed to authenticate many times in the rule window.',
  severity: 'high',
  risk_score: 73,
  version: 2,
  index: ['logs-system.auth-*'],
  query: 'event.category:authentication and event.outcome:failure',
  threshold: { field: ['source.ip'], value: 50 },
  tags: ['Domain: Endpoint', 'Tactic: Credential Access'],
  author: ['svc'],
  license,
};

export const PREBUILT_ASSETS: PrebuiltAsset[] = [
  { release: 1, rule: powershellV3 },
  { release: 1, rule: tempDirV5 },
  { release: 1, rule: failedLoginsV2 },
  // Release 2: the vendor rewrites one rule's query and description (fields users rarely
  // customise), raises another's severity (a field users do customise), and adds a rule.
  {
    release: 2,
    rule: {
      ...powershellV3,
      version: 4,
      description: 'PowerShell started with an encoded or compressed command, a common way to hide malicious scripts.',
      query: 'process.name:("powershell.exe" or "pwsh.exe") and process.args:("-enc" or "-encodedcommand" or "-e")',
    },
  },
  { release: 2, rule: { ...tempDirV5, version: 6, severity: 'medium', risk_score: 47 } },
  {
    release: 2,
    rule: {
      rule_id: NEW_SERVICE,
      type: 'query',
      name: 'Service installed by an unusual parent',
      description: 'A Windows service was installed by a process that does not usually install services.',
      severity: 'medium',
      risk_score: 47,
      version: 1,
      index: ['logs-system.system-*', 'winlogbeat-*'],
      query: 'event.code:"7045" and not winlog.event_data.ServiceFileName:*\\\\system32\\\\*',
      tags: ['Domain: Endpoint', 'OS: Windows', 'Tactic: Persistence'],
      author: ['svc'],
      license,
    },
  },
];

export const LATEST_RELEASE = Math.max(...PREBUILT_ASSETS.map((a) => a.release));

export interface PackageState {
  release: number;
  /** How long an install or upgrade call takes (lets tests overlap two calls). */
  operationMs?: number;
}

/** The package release the server holds (global: the package is installed once for every space). */
export function packageState(ctx: EmulatorContext): PackageState {
  return ctx.store.global<PackageState>('prebuilt-package', () => ({ release: 1 }));
}

/** The newest version of every rule the installed package release ships, in catalog order. */
export function latestAssets(ctx: EmulatorContext): Record<string, any>[] {
  const release = packageState(ctx).release;
  const latest = new Map<string, Record<string, any>>();
  for (const asset of PREBUILT_ASSETS) {
    if (asset.release > release) continue;
    const known = latest.get(asset.rule.rule_id);
    if (!known || known.version < asset.rule.version) latest.set(asset.rule.rule_id, asset.rule);
  }
  return [...latest.values()].map((r) => structuredClone(r));
}

export function latestAsset(ctx: EmulatorContext, ruleId: string): Record<string, any> | undefined {
  return latestAssets(ctx).find((a) => a.rule_id === ruleId);
}

/** The asset of exactly this version (a rule's base version), if the package ships it. */
export function assetAt(ruleId: string, version: number): Record<string, any> | undefined {
  const found = PREBUILT_ASSETS.find((a) => a.rule.rule_id === ruleId && a.rule.version === version);
  return found && structuredClone(found.rule);
}
