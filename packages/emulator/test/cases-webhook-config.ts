/** The config keys a case-management webhook requires (kbn-connector-schemas cases_webhook/schemas/v1.ts). */
export const CASES_WEBHOOK_CONFIG = {
  createIncidentUrl: 'https://itsm.example.com/api/issues',
  createIncidentJson: '{"title":"{{{case.title}}}"}',
  createIncidentResponseKey: 'id',
  getIncidentUrl: 'https://itsm.example.com/api/issues/{{{external.system.id}}}',
  getIncidentResponseExternalTitleKey: 'key',
  viewIncidentUrl: 'https://itsm.example.com/browse/{{{external.system.title}}}',
  updateIncidentUrl: 'https://itsm.example.com/api/issues/{{{external.system.id}}}',
  updateIncidentJson: '{"title":"{{{case.title}}}"}',
};
