import type { Resource } from '../../manifest/types.js';
import { clone, dropNulls, isPlainObject, withoutDefaults } from '../normalize.js';
import type { AdapterContext, CheckIssue, ExportVariable, KindAdapter, LiveObject } from '../types.js';
import { AREAS } from '../../client/areas.js';
import { LEASE_ID } from './lease-store.js';
import { canonicalConfig, configDefaults, connectorTypesOffer, modelChosenByServer, secretKeys, unknownTypeWarning } from './types.js';
import { connectorShapeIssues } from './checks.js';

/**
 * Connectors (/api/actions). Identity: metadata.name is the connector id. Secrets are write-only
 * (wire-facts 1.4): never diffed, sent on create and on every update, since a PUT without them
 * wipes them (wire-facts 1.2). Any type the target offers may be declared (wire-facts §16 #12): the
 * plan checks the type against the target's list (connector-types.ts).
 */

/**
 * The key an export writes in `secrets` when svcform cannot know a type's secret keys: the person
 * replaces it with the real keys. A manifest still holding it is never written, so an export can
 * never make apply replace the connector's secrets with something else (a PUT replaces them whole).
 */
export const SECRET_KEY_PLACEHOLDER = 'REPLACE_WITH_SECRET_KEY';

function holdsSecretPlaceholder(res: Resource): boolean {
  return isPlainObject(res.spec.secrets) && Object.prototype.hasOwnProperty.call(res.spec.secrets, SECRET_KEY_PLACEHOLDER);
}

function refuseSecretPlaceholder(res: Resource): void {
  if (holdsSecretPlaceholder(res)) {
    throw new Error(`Connector ${res.name}: spec.secrets still holds the export placeholder ${SECRET_KEY_PLACEHOLDER}; replace it with the secret keys of ${res.spec.connector_type_id} (a write replaces the connector's secrets whole)`);
  }
}

function desiredConfig(spec: Record<string, any>): Record<string, unknown> {
  return canonicalConfig(spec.connector_type_id, isPlainObject(spec.config) ? spec.config : {});
}

export function connectorEnvName(id: string, key: string): string {
  return `SVCFORM_CONNECTOR_${id}_${key}`.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

const pathOf = (id: string) => `/api/actions/connector/${encodeURIComponent(id)}`;

export const connectorAdapter: KindAdapter = {
  kind: 'Connector',
  schema: 'Connector.schema.json',
  area: AREAS.actions,
  // Never returned, never compared (wire-facts 1.4): plan and drift need no value, apply only for the connectors it writes.
  writeOnly: [['spec', 'secrets']],

  references() {
    return [];
  },

  offers: connectorTypesOffer,

  check(res: Resource): CheckIssue[] {
    const issues: CheckIssue[] = [];
    const config = res.spec.config ?? {};
    const unknown = typeof res.spec.connector_type_id === 'string' ? unknownTypeWarning(res.spec.connector_type_id) : undefined;
    if (unknown) issues.push({ path: ['spec', 'connector_type_id'], message: unknown, severity: 'warning' });
    if (holdsSecretPlaceholder(res)) {
      issues.push({
        path: ['spec', 'secrets', SECRET_KEY_PLACEHOLDER],
        message: `spec.secrets.${SECRET_KEY_PLACEHOLDER} is the export's placeholder: replace it with the secret keys of ${res.spec.connector_type_id}; until then svcform never writes this connector`,
        severity: 'warning',
      });
    }
    issues.push(...connectorShapeIssues(res));
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
    // Defaults filled here too: a key one release fills and another leaves out (a webhook's
    // authType) must compare equal to the manifest either way.
    return { name: live.body.name, connector_type_id: live.body.connector_type_id, config: canonicalConfig(live.body.connector_type_id, live.body.config ?? {}) };
  },

  chosenByServer(res: Resource) {
    return modelChosenByServer(res.spec.connector_type_id, isPlainObject(res.spec.config) ? res.spec.config : {}) ? ['/spec/config/defaultModel'] : [];
  },

  async create(ctx: AdapterContext, res: Resource) {
    refuseSecretPlaceholder(res);
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
    refuseSecretPlaceholder(res);
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
    const warnings: string[] = [];
    const keys = secretKeys(typeId, config);
    const placeholder = (key: string, envKey: string, description: string) => {
      const name = connectorEnvName(live.name, envKey);
      spec.secrets ??= {};
      spec.secrets[key] = `\${env:${name}}`;
      variables.push({ name, description });
    };
    for (const key of keys ?? []) placeholder(key, key, `secrets.${key} of connector ${live.name} (${typeId}); the server never returns it`);
    // Secret keys svcform cannot know: a placeholder the person must rename, never an empty
    // secrets (the next write would replace the connector's secrets with it). A connector the
    // server reports without secrets has none to lose.
    if (keys === undefined && live.body.is_missing_secrets !== true) {
      placeholder(SECRET_KEY_PLACEHOLDER, 'SECRET', `a secret of connector ${live.name} (${typeId}): svcform does not know this type's secret keys; rename ${SECRET_KEY_PLACEHOLDER} in the manifest to the real key (add one line per key)`);
      warnings.push(`svcform does not know the secret keys of connector type ${typeId}: the manifest has spec.secrets.${SECRET_KEY_PLACEHOLDER}, to be replaced with the real keys; until then plan works and apply refuses to write this connector`);
    }
    return { spec, variables, warnings };
  },

  hasWriteOnly(res: Resource) {
    return isPlainObject(res.spec.secrets) && Object.keys(res.spec.secrets).length > 0;
  },
};
