import type { Resource } from '../manifest/types.js';
import { clone, dropNulls, isPlainObject, withoutDefaults } from './normalize.js';
import type { AdapterContext, CheckIssue, ExportVariable, KindAdapter, LiveObject } from './types.js';
import { AREAS } from '../client/areas.js';
import { LEASE_ID } from './lease-store.js';

/**
 * Connectors (/api/actions). Identity: metadata.name is the connector id. Secrets are write-only
 * (wire-facts 1.4): never diffed, sent on create and on every update, since a PUT without them
 * wipes them (wire-facts 1.2).
 */

/** Config defaults the server fills per type (wire-facts 1.3), as a function of what was sent. */
function configDefaults(typeId: string, config: Record<string, unknown>): Record<string, unknown> {
  switch (typeId) {
    case '.webhook':
      // hasAuth: `schema.boolean({ defaultValue: true })` in the webhook config (wire-facts §15 fact 4).
      return { method: 'post', hasAuth: true };
    case '.email':
      return { hasAuth: true, service: 'other' };
    case '.index':
      return { refresh: false };
    case '.gen-ai':
      return config.apiProvider === 'Other' ? { verificationMode: 'full' } : {};
    default:
      return {};
  }
}

/** The secret keys an export writes as ${env:...} placeholders. */
function secretKeys(typeId: string, config: Record<string, unknown>): string[] {
  switch (typeId) {
    case '.webhook':
      // The server defaults hasAuth to true; only an explicit false means no credentials.
      if (config.hasAuth === false) return [];
      // Certificate authentication carries the certificate in secrets, not a user and password.
      if (config.authType === 'webhook-authentication-ssl') return config.certType === 'ssl-pfx' ? ['pfx'] : ['crt', 'key'];
      return ['user', 'password'];
    case '.gen-ai':
      return ['apiKey'];
    case '.email':
      // The server defaults hasAuth to true; only an explicit false means no credentials.
      return config.hasAuth === false ? [] : ['user', 'password'];
    case '.chat':
      return ['webhookUrl'];
    default:
      return [];
  }
}

function desiredConfig(spec: Record<string, any>): Record<string, unknown> {
  const config = dropNulls(clone(isPlainObject(spec.config) ? spec.config : {}));
  return { ...configDefaults(spec.connector_type_id, config), ...config };
}

export function connectorEnvName(id: string, key: string): string {
  return `SVCFORM_CONNECTOR_${id}_${key}`.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

const pathOf = (id: string) => `/api/actions/connector/${encodeURIComponent(id)}`;

export const connectorAdapter: KindAdapter = {
  kind: 'Connector',
  schema: 'Connector.schema.json',
  area: AREAS.actions,

  references() {
    return [];
  },

  check(res: Resource): CheckIssue[] {
    const issues: CheckIssue[] = [];
    const config = res.spec.config ?? {};
    if (res.spec.connector_type_id === '.gen-ai' && typeof config.apiUrl === 'string') {
      // The document insists on the full chat-completions endpoint; a bare origin is a common mistake.
      try {
        const url = new URL(config.apiUrl);
        if (url.pathname === '/' || url.pathname === '') {
          issues.push({ path: ['spec', 'config', 'apiUrl'], message: 'apiUrl must be the full chat-completions endpoint URL, not a base URL', severity: 'warning' });
        }
      } catch {
        issues.push({ path: ['spec', 'config', 'apiUrl'], message: `apiUrl is not a URL: ${config.apiUrl}` });
      }
    }
    return issues;
  },

  async list(ctx: AdapterContext, space: string): Promise<LiveObject[]> {
    const res = await ctx.api.request<any[]>({ method: 'GET', path: '/api/actions/connectors', space });
    // Apply leases (lease-store.ts) are svcform's own bookkeeping, not configuration.
    return res.body.filter((c) => !LEASE_ID.test(c.id)).map((c) => ({
      kind: 'Connector',
      space,
      name: c.id,
      body: c,
      readOnly: c.is_preconfigured ? 'preconfigured connector' : c.is_system_action ? 'system action connector' : undefined,
    }));
  },

  normalizeDesired(res: Resource) {
    return { name: res.spec.name, connector_type_id: res.spec.connector_type_id, config: desiredConfig(res.spec) };
  },

  normalizeLive(live: LiveObject) {
    return { name: live.body.name, connector_type_id: live.body.connector_type_id, config: dropNulls(clone(live.body.config ?? {})) };
  },

  async create(ctx: AdapterContext, res: Resource) {
    await ctx.api.request({
      method: 'POST',
      path: pathOf(res.name),
      space: res.space,
      idempotent: true,
      body: { name: res.spec.name, connector_type_id: res.spec.connector_type_id, config: res.spec.config ?? {}, secrets: res.spec.secrets ?? {} },
    });
  },

  async update(ctx: AdapterContext, res: Resource, live: LiveObject) {
    if (live.body.connector_type_id !== res.spec.connector_type_id) {
      throw new Error(
        `Connector ${res.name}: connector_type_id cannot change (live ${live.body.connector_type_id}, manifest ${res.spec.connector_type_id}); delete the connector or give the manifest a new name`,
      );
    }
    // Secrets always go along: a PUT without them replaces them with {} (wire-facts 1.2).
    await ctx.api.request({
      method: 'PUT',
      path: pathOf(res.name),
      space: res.space,
      body: { name: res.spec.name, config: res.spec.config ?? {}, secrets: res.spec.secrets ?? {} },
    });
  },

  async delete(ctx: AdapterContext, live: LiveObject) {
    await ctx.api.request({ method: 'DELETE', path: pathOf(live.name), space: live.space });
  },

  toSpec(live: LiveObject) {
    const typeId = live.body.connector_type_id;
    const config = dropNulls(clone(live.body.config ?? {}));
    const minimal = withoutDefaults(config, configDefaults(typeId, config));
    const spec: Record<string, any> = { name: live.body.name, connector_type_id: typeId };
    if (Object.keys(minimal).length) spec.config = minimal;
    const variables: ExportVariable[] = [];
    const keys = secretKeys(typeId, config);
    if (keys.length) {
      spec.secrets = {};
      for (const key of keys) {
        const name = connectorEnvName(live.name, key);
        spec.secrets[key] = `\${env:${name}}`;
        variables.push({ name, description: `secrets.${key} of connector ${live.name} (${typeId}); the server never returns it` });
      }
    }
    return { spec, variables };
  },

  hasWriteOnly(res: Resource) {
    return isPlainObject(res.spec.secrets) && Object.keys(res.spec.secrets).length > 0;
  },
};
