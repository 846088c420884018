import type { EmulatorArea } from '../../area.js';
import type { EmulatorContext } from '../../context.js';
import type { EmuRequest, EmuResponse } from '../../router.js';
import { securityError } from './build.js';
import { bulkAction } from './bulk.js';
import { createRule, deleteRuleRoute, findRules, patchRuleRoute, readRule, updateRule } from './crud.js';
import { addRuleExceptions } from './exceptions.js';
import { installPrepackaged, prepackagedStatus } from './prebuilt.js';
import { previewRule } from './preview.js';
import { performInstallation, performUpgrade, PREBUILT_INTERNAL, prebuiltStatus, revertPrebuilt, reviewInstallation, reviewUpgrade } from './prebuilt-internal.js';
import { rulesState } from './state.js';
import { exportRules, importRules } from './transfer.js';

/** The detection engine area (/api/detection_engine): rules, the alerts index and privileges. */

const alertsIndexName = (space: string) => `.alerts-security.alerts-${space}`;

function createAlertsIndex(): EmuResponse {
  // The space-aware alerts alias always exists on 9.4.3, so creating it is a no-op.
  return { body: { acknowledged: true } };
}

function readAlertsIndex(req: EmuRequest): EmuResponse {
  return { body: { name: alertsIndexName(req.space), index_mapping_outdated: false } };
}

function deleteAlertsIndex(req: EmuRequest, ctx: EmulatorContext): EmuResponse {
  // 9.4.3 deletes only legacy `.siem-signals-<space>` indices; with only the modern alias it is a 404.
  const state = rulesState(ctx, req.space);
  if (!state.legacySignalsIndex) throw securityError(404, `index: ".siem-signals-${req.space}" does not exist`);
  state.legacySignalsIndex = false;
  return { body: { acknowledged: true } };
}

const CLUSTER_PRIVILEGES = ['all', 'create_snapshot', 'manage', 'manage_api_key', 'manage_ccr', 'manage_ilm', 'manage_index_templates', 'manage_ingest_pipelines', 'manage_ml', 'manage_own_api_key', 'manage_pipeline', 'manage_security', 'manage_transform', 'monitor', 'monitor_ml', 'monitor_transform', 'read_ilm'];
const INDEX_PRIVILEGES = ['all', 'create', 'create_doc', 'create_index', 'delete', 'delete_index', 'index', 'maintenance', 'manage', 'monitor', 'read', 'view_index_metadata', 'write'];

/** Privileges a read-only key still holds. */
const READ_PRIVILEGES = new Set(['monitor', 'monitor_ml', 'monitor_transform', 'read', 'view_index_metadata']);

function privileges(req: EmuRequest): EmuResponse {
  const held = (p: string) => !req.readOnly || READ_PRIVILEGES.has(p);
  return {
    body: {
      username: req.user,
      has_all_requested: !req.readOnly,
      cluster: Object.fromEntries(CLUSTER_PRIVILEGES.map((p) => [p, held(p)])),
      index: { [alertsIndexName(req.space)]: Object.fromEntries(INDEX_PRIVILEGES.map((p) => [p, held(p)])) },
      application: {},
      is_authenticated: true,
      has_encryption_key: true,
    },
  };
}

export const rulesArea: EmulatorArea = {
  name: 'rules',
  register(router) {
    const security = { errors: 'security' as const };
    router.post('/api/detection_engine/rules', createRule, security);
    router.get('/api/detection_engine/rules', readRule, security);
    router.put('/api/detection_engine/rules', updateRule, security);
    router.patch('/api/detection_engine/rules', patchRuleRoute, security);
    router.delete('/api/detection_engine/rules', deleteRuleRoute, security);
    router.get('/api/detection_engine/rules/_find', findRules, security);
    router.post('/api/detection_engine/rules/_bulk_action', bulkAction, security);
    router.post('/api/detection_engine/rules/_export', exportRules, security);
    router.post('/api/detection_engine/rules/_import', importRules, security);
    router.post('/api/detection_engine/rules/preview', previewRule, security);
    router.post('/api/detection_engine/rules/:id/exceptions', addRuleExceptions, security);
    router.get('/api/detection_engine/rules/prepackaged/_status', prepackagedStatus, security);
    router.put('/api/detection_engine/rules/prepackaged', installPrepackaged, security);
    router.get(`${PREBUILT_INTERNAL}/status`, prebuiltStatus, security);
    router.post(`${PREBUILT_INTERNAL}/installation/_review`, reviewInstallation, { ...security, access: 'read' });
    router.post(`${PREBUILT_INTERNAL}/installation/_perform`, performInstallation, security);
    router.post(`${PREBUILT_INTERNAL}/upgrade/_review`, reviewUpgrade, { ...security, access: 'read' });
    router.post(`${PREBUILT_INTERNAL}/upgrade/_perform`, performUpgrade, security);
    router.post(`${PREBUILT_INTERNAL}/revert`, revertPrebuilt, security);
    router.post('/api/detection_engine/index', createAlertsIndex, security);
    router.get('/api/detection_engine/index', readAlertsIndex, security);
    router.delete('/api/detection_engine/index', deleteAlertsIndex, security);
    router.get('/api/detection_engine/privileges', privileges, security);
  },
};
