/**
 * Connector types of the real server (9.4.3) beyond the ten of service-api.md, as the emulator offers
 * them and the Connector kind knows them (their secret keys and config defaults). Sources: the actions plugin's registered types
 * (K:x-pack/platform/plugins/shared/actions/server/integration_tests/mocks/connector_types.ts), each
 * type's registration in K:x-pack/platform/plugins/shared/stack_connectors (name, minimum license,
 * supported features), the OpenAPI document at b76003905 (`<type>_secrets` and `<type>_config`
 * schemas) and wire-facts 1.3 (config defaults). service-api.md names the chat, team-chat,
 * incident-tracking and ticketing types `.chat`, `.team-chat`, `.ticketing`, `.issue-tracker`;
 * the real ids they stand for (`.slack`, `.teams`, `.servicenow`, `.jira`) are therefore not
 * listed again here.
 * svcform's copy; the emulator keeps its own (packages/emulator/src/facts/), so a wrong value on
 * either side fails the conformance tests instead of agreeing by construction.
 */

export type ConnectorLicense = 'basic' | 'gold' | 'platinum' | 'enterprise';

export interface ConnectorTypeFacts {
  id: string;
  name: string;
  minimumLicense: ConnectorLicense;
  featureIds: readonly string[];
  /** A system action type: its connector is built in, never created through the API. */
  systemAction?: boolean;
  /**
   * The secret keys a connector of the type holds, given its config (an export writes them as
   * placeholders); undefined where svcform does not know them.
   */
  secretKeys?: (config: Record<string, unknown>) => string[];
  /** Config the server fills in when it is not sent (wire-facts 1.3). */
  defaults?: (config: Record<string, unknown>) => Record<string, unknown>;
}

const ALERTING_SIEM = ['alerting', 'siem'] as const;
const ALERTING_UPTIME_SIEM = ['alerting', 'uptime', 'siem'] as const;
const CASES_TOO = ['alerting', 'cases', 'siem'] as const;
const GENERATIVE_AI = ['generativeAIForSecurity', 'generativeAIForObservability', 'generativeAIForSearchPlayground'] as const;
const ENDPOINT_SECURITY = ['endpointSecurity'] as const;

const keys = (...names: string[]) => () => names;

/** Basic credentials unless the webhook-style config says certificates or no authentication. */
function webhookStyleSecrets(config: Record<string, unknown>): string[] {
  if (config.hasAuth === false) return [];
  if (config.authType === 'webhook-authentication-ssl') return config.certType === 'ssl-pfx' ? ['pfx'] : ['crt', 'key'];
  return ['user', 'password'];
}

/** User and password, or the OAuth client secret and private key (servicenow_secrets). */
export const serviceNowSecrets = (config: Record<string, unknown>) => (config.isOAuth === true ? ['clientSecret', 'privateKey'] : ['username', 'password']);

export const EXTRA_CONNECTOR_TYPES: readonly ConnectorTypeFacts[] = [
  { id: '.pagerduty', name: 'PagerDuty', minimumLicense: 'gold', featureIds: ALERTING_UPTIME_SIEM, secretKeys: keys('routingKey') },
  { id: '.swimlane', name: 'Swimlane', minimumLicense: 'gold', featureIds: CASES_TOO, secretKeys: keys('apiToken'), defaults: () => ({ mappings: {} }) },
  { id: '.slack_api', name: 'Slack API', minimumLicense: 'gold', featureIds: ALERTING_SIEM, secretKeys: keys('token') },
  {
    id: '.cases-webhook', name: 'Webhook - Case Management', minimumLicense: 'gold', featureIds: ['cases'], secretKeys: webhookStyleSecrets,
    // getIncidentMethod: `.default(WebhookMethods.GET)` in kbn-connector-schemas cases_webhook/schemas/v1.ts;
    // releases before that key answer none, which plan reads as the same default.
    defaults: () => ({ authType: 'webhook-authentication-basic', hasAuth: true, createIncidentMethod: 'post', getIncidentMethod: 'get', updateIncidentMethod: 'put', createCommentMethod: 'put' }),
  },
  {
    id: '.xmatters', name: 'xMatters', minimumLicense: 'gold', featureIds: ALERTING_SIEM,
    secretKeys: (c) => (c.usesBasic === false ? ['secretsUrl'] : ['user', 'password']),
    defaults: () => ({ usesBasic: true }),
  },
  { id: '.servicenow-sir', name: 'ServiceNow SecOps', minimumLicense: 'platinum', featureIds: CASES_TOO, secretKeys: serviceNowSecrets, defaults: () => ({ isOAuth: false, usesTableApi: true }) },
  { id: '.servicenow-itom', name: 'ServiceNow ITOM', minimumLicense: 'platinum', featureIds: ALERTING_SIEM, secretKeys: serviceNowSecrets, defaults: () => ({ isOAuth: false }) },
  { id: '.torq', name: 'Torq', minimumLicense: 'gold', featureIds: ALERTING_SIEM, secretKeys: keys('token') },
  { id: '.opsgenie', name: 'Opsgenie', minimumLicense: 'platinum', featureIds: ALERTING_UPTIME_SIEM, secretKeys: keys('apiKey') },
  { id: '.tines', name: 'Tines', minimumLicense: 'gold', featureIds: ALERTING_SIEM, secretKeys: keys('email', 'token') },
  {
    id: '.bedrock', name: 'Amazon Bedrock', minimumLicense: 'enterprise', featureIds: GENERATIVE_AI, secretKeys: keys('accessKey', 'secret'),
    defaults: () => ({ defaultModel: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' }),
  },
  { id: '.gemini', name: 'Google Gemini', minimumLicense: 'enterprise', featureIds: GENERATIVE_AI, secretKeys: keys('credentialsJson') },
  { id: '.d3security', name: 'D3 Security', minimumLicense: 'gold', featureIds: ALERTING_SIEM, secretKeys: keys('token') },
  { id: '.resilient', name: 'IBM Resilient', minimumLicense: 'platinum', featureIds: CASES_TOO, secretKeys: keys('apiKeyId', 'apiKeySecret') },
  { id: '.thehive', name: 'TheHive', minimumLicense: 'gold', featureIds: ALERTING_SIEM, secretKeys: keys('apiKey') },
  { id: '.sentinelone', name: 'Sentinel One', minimumLicense: 'enterprise', featureIds: ENDPOINT_SECURITY, secretKeys: keys('token') },
  { id: '.crowdstrike', name: 'CrowdStrike', minimumLicense: 'enterprise', featureIds: ENDPOINT_SECURITY, secretKeys: keys('clientId', 'clientSecret') },
  { id: '.microsoft_defender_endpoint', name: 'Microsoft Defender for Endpoint', minimumLicense: 'enterprise', featureIds: ENDPOINT_SECURITY, secretKeys: keys('clientSecret') },
  // Secrets of the AI connector hold provider-specific keys: not known offline.
  { id: '.inference', name: 'AI Connector', minimumLicense: 'enterprise', featureIds: GENERATIVE_AI },
  // Registered in the 9.x actions plugin (the same mocks list); their licenses and features were
  // not read (I), and their secret keys are left unknown, so an export asks for them.
  { id: '.jira-service-management', name: 'Jira Service Management', minimumLicense: 'gold', featureIds: ALERTING_SIEM },
  { id: '.xsoar', name: 'XSOAR', minimumLicense: 'gold', featureIds: ALERTING_SIEM },
  { id: '.mcp', name: 'MCP', minimumLicense: 'enterprise', featureIds: ['workflows'] },
  { id: '.observability-ai-assistant', name: 'Observability AI Assistant', minimumLicense: 'enterprise', featureIds: ['alerting'], systemAction: true },
];

export const EXTRA_CONNECTOR_TYPES_BY_ID: ReadonlyMap<string, ConnectorTypeFacts> = new Map(EXTRA_CONNECTOR_TYPES.map((t) => [t.id, t]));
