import type { KindAdapter } from './types.js';
import type { KindCatalog } from '../manifest/types.js';
import { connectorAdapter } from './connector/connector.js';
import { ruleAdapter } from './rule/rule.js';
import { valueListAdapter } from './value-list.js';
import { agentPolicyAdapter } from './fleet/agent-policy.js';
import { packagePolicyAdapter } from './fleet/package-policy.js';
import { hostQueryPackAdapter } from './hostquery/pack.js';
import { hostQuerySavedQueryAdapter } from './hostquery/saved-query.js';
import { maintenanceWindowAdapter } from './maintenance-window.js';
import { integrationPackageAdapter } from './fleet/integration-package.js';
import { uptimeSettingsAdapter } from './uptime-settings.js';
import { caseConfigurationAdapter } from './case-configuration.js';
import { agentToolAdapter } from './agent-builder/tool.js';
import { agentAdapter } from './agent-builder/agent.js';
import { attackDiscoveryScheduleAdapter } from './attack-discovery-schedule.js';
import { savedObjectAdapter } from './saved-object.js';
import { exceptionListAdapter } from './exception/list.js';
import { prebuiltRulesAdapter } from './rule/prebuilt-rules.js';
import { timelineTemplateAdapter } from './timeline-template.js';
import { protectionUpdatesNoteAdapter } from './protection-updates-note.js';
import { fleetOutputAdapter } from './fleet/output.js';
import { anonymizationFieldAdapter } from './anonymization-field.js';
import { spaceAdapter } from './space.js';
import { dataViewAdapter } from './data-view.js';
import { assetCriticalityAdapter } from './asset-criticality.js';
import { agentSkillAdapter } from './agent-builder/skill.js';
import { agentWorkflowAdapter } from './agent-builder/workflow.js';
import { watchlistAdapter } from './watchlist.js';
import { entityStoreAdapter } from './entity-store.js';
import { endpointScriptAdapter } from './endpoint-script.js';
import { agentlessPolicyAdapter } from './fleet/agentless-policy.js';
import { agentPluginAdapter } from './agent-builder/plugin.js';
import { privilegedUserMonitoringAdapter } from './privileged-user-monitoring.js';

/** Every kind svcform manages. Adding a kind means adding its adapter here and nothing in the engine. */
export const ADAPTERS: KindAdapter[] = [
  connectorAdapter,
  ruleAdapter,
  valueListAdapter,
  agentPolicyAdapter,
  packagePolicyAdapter,
  hostQueryPackAdapter,
  hostQuerySavedQueryAdapter,
  maintenanceWindowAdapter,
  integrationPackageAdapter,
  uptimeSettingsAdapter,
  caseConfigurationAdapter,
  agentToolAdapter,
  agentAdapter,
  attackDiscoveryScheduleAdapter,
  savedObjectAdapter,
  exceptionListAdapter,
  prebuiltRulesAdapter,
  timelineTemplateAdapter,
  protectionUpdatesNoteAdapter,
  fleetOutputAdapter,
  anonymizationFieldAdapter,
  spaceAdapter,
  dataViewAdapter,
  assetCriticalityAdapter,
  agentSkillAdapter,
  agentWorkflowAdapter,
  watchlistAdapter,
  entityStoreAdapter,
  endpointScriptAdapter,
  agentlessPolicyAdapter,
  agentPluginAdapter,
  privilegedUserMonitoringAdapter,
];

const BY_KIND = new Map(ADAPTERS.map((a) => [a.kind, a]));

export function adapterFor(kind: string): KindAdapter | undefined {
  return BY_KIND.get(kind);
}

export function knownKinds(): string[] {
  return ADAPTERS.map((a) => a.kind);
}

/** The kinds as manifest validation sees them. */
export const KIND_CATALOG: KindCatalog = { kinds: knownKinds, lookup: adapterFor };
