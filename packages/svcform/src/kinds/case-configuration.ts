import type { Resource } from '../manifest/types.js';
import type { AdapterContext, CheckIssue, KindAdapter, LiveObject, Reference } from './types.js';
import { deepEqual, isPlainObject, omit } from './normalize.js';
import { AREAS } from '../client/areas.js';

const KIND = 'CaseConfiguration';
const PATH = '/api/cases/configure';
const NONE_CONNECTOR = { id: 'none', name: 'none', type: '.none', fields: null };

/**
 * Case settings of one owner in a space (wire-facts §13). metadata.name is the owner; the server
 * id is not the identity: POST replaces the owner's configuration with a new one under a new id,
 * so svcform PATCHes (with the `version` the listing gave) whenever one exists, and POSTs only
 * when the owner has none.
 *
 * `spec.connector.id` names a Connector resource (or `none`); the name and type the API wants with
 * it are read from the connectors cases can use (`/api/cases/configure/connectors/_find`) when
 * writing, so a connector declared in the same run is created first and then resolved.
 *
 * There is no delete route. "Deleting" writes the settings a new owner starts with (close by user,
 * no connector, no custom fields, no templates), and a configuration holding exactly those is
 * listed as no object: so a reset shows as a create, and a manage scope does not reset it again.
 * A manifest equal to those settings would never converge; `check` refuses it.
 */

function connectorOf(spec: Record<string, any>): { id: string; fields: Record<string, unknown> | null } {
  const c = isPlainObject(spec.connector) ? spec.connector : {};
  return { id: typeof c.id === 'string' ? c.id : 'none', fields: isPlainObject(c.fields) ? c.fields : null };
}

function customFieldsOf(v: unknown): Array<Record<string, unknown>> {
  return (Array.isArray(v) ? v : []).map((f: any) => ({
    key: f.key,
    label: f.label,
    type: f.type,
    required: f.required === true,
    ...(f.defaultValue !== undefined && f.defaultValue !== null ? { defaultValue: f.defaultValue } : {}),
  }));
}

/**
 * Templates as written, the server keeping them as given, but for `caseFields`: the route requires
 * the key (configure/v1.ts TemplateConfigurationRt: null or the fields), so a template that leaves
 * it out is sent, and compared, with null, which means none.
 */
function templatesOf(v: unknown): unknown[] {
  return (Array.isArray(v) ? structuredClone(v) : []).map((t) => (isPlainObject(t) && t.caseFields === undefined ? { ...t, caseFields: null } : t));
}

function comparable(src: Record<string, any>) {
  return {
    closure_type: src.closure_type ?? 'close-by-user',
    connector: connectorOf(src),
    customFields: customFieldsOf(src.customFields),
    templates: templatesOf(src.templates),
  };
}

const STARTING = comparable({});

async function resolveConnector(ctx: AdapterContext, space: string, spec: Record<string, any>) {
  const wanted = connectorOf(spec);
  if (wanted.id === 'none') return { ...NONE_CONNECTOR };
  const res = await ctx.api.request({ method: 'GET', path: `${PATH}/connectors/_find`, space });
  const found = (Array.isArray(res.body) ? res.body : []).find((c: any) => c.id === wanted.id);
  if (!found) throw new Error(`connector ${JSON.stringify(wanted.id)} is not a connector cases can use in space ${space} (a connector of a type with the cases feature, such as .ticketing, .issue-tracker, .cases-webhook or .swimlane)`);
  return { id: found.id, name: found.name, type: found.actionTypeId, fields: wanted.fields };
}

async function writeBody(ctx: AdapterContext, space: string, spec: Record<string, any>) {
  const c = comparable(spec);
  return { closure_type: c.closure_type, connector: await resolveConnector(ctx, space, spec), customFields: c.customFields, templates: c.templates };
}

async function patch(ctx: AdapterContext, space: string, id: string, version: string, spec: Record<string, any>): Promise<void> {
  await ctx.api.request({
    method: 'PATCH',
    path: `${PATH}/${encodeURIComponent(id)}`,
    space,
    body: { version, ...(await writeBody(ctx, space, spec)) },
  });
}

/** The owner's configuration as the server holds it now, listed or not. */
async function current(ctx: AdapterContext, space: string, owner: string): Promise<Record<string, any> | undefined> {
  const res = await ctx.api.request({ method: 'GET', path: PATH, space, query: { owner } });
  return (Array.isArray(res.body) ? res.body : []).find((c: any) => c.owner === owner);
}

export const caseConfigurationAdapter: KindAdapter = {
  kind: KIND,
  schema: 'CaseConfiguration.schema.json',
  area: AREAS.cases,
  referenceKinds: ['Connector'],

  /**
   * Accepted when missing: the configuration stores the connector's id, name and type as sent,
   * and its field mappings come from the connector type, not from the connector
   * (K:x-pack/platform/plugins/shared/cases/server/client/configure/create_mappings.ts).
   */
  references(spec): Reference[] {
    const id = spec.connector?.id;
    return typeof id === 'string' && id !== 'none'
      ? [{ kind: 'Connector', name: id, path: ['spec', 'connector', 'id'], whenMissing: 'accepted', missingEffect: 'pushing a case to it fails until it exists' }]
      : [];
  },

  check(res: Resource): CheckIssue[] {
    const issues: CheckIssue[] = [];
    const keys = customFieldsOf(res.spec.customFields).map((f) => f.key);
    keys.forEach((k, i) => {
      if (keys.indexOf(k) !== i) issues.push({ path: ['spec', 'customFields', i, 'key'], message: `custom field key ${JSON.stringify(k)} is used twice; keys must be unique` });
    });
    if (deepEqual(comparable(res.spec), STARTING)) {
      issues.push({
        path: ['spec'],
        message: 'these are the settings an owner starts with (close by user, no connector, no custom fields, no templates): remove the manifest, or change a setting',
      });
    }
    return issues;
  },

  async list(ctx: AdapterContext, space: string): Promise<LiveObject[]> {
    const res = await ctx.api.request({ method: 'GET', path: PATH, space });
    const items: Array<Record<string, any>> = Array.isArray(res.body) ? res.body : [];
    return items
      .filter((body) => !deepEqual(comparable(body), STARTING))
      .map((body) => ({ kind: KIND, space, name: body.owner, serverId: body.id, body }));
  },

  normalizeDesired(res: Resource) {
    return comparable(res.spec);
  },

  normalizeLive(live: LiveObject) {
    return comparable(live.body);
  },

  async create(ctx: AdapterContext, res: Resource) {
    // A configuration in its starting state is not listed, but it exists: patch it, because a
    // POST would replace it under a new id.
    const existing = await current(ctx, res.space, res.name);
    if (existing) return patch(ctx, res.space, existing.id, existing.version, res.spec);
    await ctx.api.request({ method: 'POST', path: PATH, space: res.space, body: { owner: res.name, ...(await writeBody(ctx, res.space, res.spec)) } });
  },

  async update(ctx: AdapterContext, res: Resource, live: LiveObject) {
    await patch(ctx, live.space, live.serverId ?? live.body.id, live.body.version, res.spec);
  },

  async delete(ctx: AdapterContext, live: LiveObject) {
    await patch(ctx, live.space, live.serverId ?? live.body.id, live.body.version, {});
  },

  toSpec(live: LiveObject) {
    const c = comparable(live.body);
    const spec: Record<string, any> = { closure_type: c.closure_type };
    if (c.connector.id !== 'none') spec.connector = { id: c.connector.id, ...(c.connector.fields ? { fields: c.connector.fields } : {}) };
    if (c.customFields.length) spec.customFields = c.customFields;
    if (c.templates.length) spec.templates = c.templates.map((t) => (isPlainObject(t) && t.caseFields === null ? omit(t, ['caseFields']) : t));
    return { spec };
  },
};
