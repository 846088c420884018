import type { EmulatorContext } from '../../context.js';
import type { EmuRequest, EmuResponse } from '../../router.js';
import { buildNewRule, replaceRule } from './build.js';
import { writer } from './crud.js';
import { allRules, ruleByRuleId, rulesState, saveRule } from './state.js';

/**
 * The prebuilt rule package the emulator ships: three rules, installed by
 * PUT /api/detection_engine/rules/prepackaged as immutable rules with an external rule source.
 */
export const PREBUILT_RULES: Record<string, any>[] = [
  {
    rule_id: '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b01',
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
    license: 'Vendor License v2',
    threat: [{ framework: 'MITRE ATT&CK', tactic: { id: 'TA0002', name: 'Execution', reference: 'https://attack.mitre.org/tactics/TA0002/' } }],
  },
  {
    rule_id: '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b02',
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
    license: 'Vendor License v2',
  },
  {
    rule_id: '5c7f9a1e-3b2d-4e8f-9a6c-1d2e3f4a5b03',
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
    license: 'Vendor License v2',
  },
];

const externalSource = () => ({ type: 'external', is_customized: false });

function installedPrebuilt(ctx: EmulatorContext, space: string) {
  return allRules(rulesState(ctx, space)).filter((r) => r.rule_source?.type === 'external');
}

export function prepackagedStatus(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const state = rulesState(ctx, req.space);
  const installed = installedPrebuilt(ctx, req.space);
  const notUpdated = PREBUILT_RULES.filter((asset) => {
    const rule = ruleByRuleId(state, asset.rule_id);
    return rule?.rule_source?.type === 'external' && rule.version < asset.version;
  });
  return {
    body: {
      rules_custom_installed: allRules(state).length - installed.length,
      rules_installed: installed.length,
      rules_not_installed: PREBUILT_RULES.filter((asset) => !ruleByRuleId(state, asset.rule_id)).length,
      rules_not_updated: notUpdated.length,
      timelines_installed: 0,
      timelines_not_installed: 0,
      timelines_not_updated: 0,
    },
  };
}

/** Installs the missing prebuilt rules and upgrades outdated ones; idempotent. */
export function installPrepackaged(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  const state = rulesState(ctx, req.space);
  const w = writer(req, ctx);
  let installed = 0;
  let updated = 0;
  for (const asset of PREBUILT_RULES) {
    const existing = ruleByRuleId(state, asset.rule_id);
    if (!existing) {
      saveRule(state, buildNewRule(w, asset, { immutable: true, ruleSource: externalSource() }));
      installed += 1;
    } else if (existing.rule_source?.type === 'external' && existing.version < asset.version) {
      // An upgrade replaces the content and keeps the user's enabled state.
      const upgraded = replaceRule(w, existing, { ...asset, enabled: existing.enabled });
      saveRule(state, { ...upgraded, rule_source: externalSource() });
      updated += 1;
    }
  }
  return { body: { rules_installed: installed, rules_updated: updated, timelines_installed: 0, timelines_updated: 0 } };
}
