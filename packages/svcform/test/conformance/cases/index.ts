import type { ConformanceCase } from './common.js';
import { connector } from './connector.js';
import { rule } from './rule.js';
import { valueList } from './value-list.js';
import { agentPolicy } from './agent-policy.js';
import { packagePolicy } from './package-policy.js';
import { savedQuery } from './host-query-saved-query.js';
import { pack } from './host-query-pack.js';
import { maintenanceWindow } from './maintenance-window.js';
import { integrationPackage } from './integration-package.js';
import { uptimeSettings } from './uptime-settings.js';
import { caseConfiguration } from './case-configuration.js';
import { agentTool, agent } from './agent-builder.js';
import { attackDiscoverySchedule } from './attack-discovery-schedule.js';
import { savedObject } from './saved-object.js';
import { exceptionList } from './exception-list.js';
import { prebuiltRules } from './prebuilt-rules.js';
import { timelineTemplate } from './timeline-template.js';
import { protectionUpdatesNote } from './protection-updates-note.js';
import { fleetOutput } from './fleet-output.js';
import { anonymizationField } from './anonymization-field.js';
import { space } from './space.js';
import { dataView } from './data-view.js';
import { assetCriticality } from './asset-criticality.js';
import { agentSkill, agentWorkflow } from './agent-skill-workflow.js';
import { watchlist } from './watchlist.js';
import { entityStore } from './entity-store.js';
import { endpointScript } from './endpoint-script.js';
import { agentlessPolicy } from './agentless-policy.js';
import { agentPlugin } from './agent-plugin.js';
import { privilegedUserMonitoring } from './privileged-user-monitoring.js';

export { ok, type ConformanceCase } from './common.js';

/** Every case, by kind. A new kind adds its file beside this one and its line here. */
export const CASES: Record<string, ConformanceCase> = Object.fromEntries(
  [
    connector, rule, valueList, agentPolicy, packagePolicy, savedQuery, pack, maintenanceWindow,
    integrationPackage, uptimeSettings, caseConfiguration, agentTool, agent, attackDiscoverySchedule, savedObject, exceptionList,
    prebuiltRules, timelineTemplate, protectionUpdatesNote,
    fleetOutput,
    anonymizationField,
    space,
    dataView,
    assetCriticality,
    agentSkill,
    agentWorkflow,
    watchlist,
    entityStore,
    endpointScript,
    agentlessPolicy,
    agentPlugin,
    privilegedUserMonitoring,
  ].map((c) => [c.kind, c]),
);
