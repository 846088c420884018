import type { CheckIssue, Resource } from '../../manifest/types.js';
import { compareVersions } from './integration-package.js';
import { cachedPackageInfo, cleanVars, expandSimplified, loadPackageInfo, mapSecretVars, minimalSimplified, type InputsState, type StreamState, type Vars } from './packages.js';
import { asSet, isPlainObject } from '../normalize.js';
import { listAllPages } from '../paging.js';
import type { AdapterContext, KindAdapter, LiveObject, Reference } from '../types.js';
import type { RunScope } from '../run-scope.js';
import { AREAS } from '../../client/areas.js';

/**
 * Fleet package (integration) policies in the simplified format (wire-facts 6). metadata.name is
 * the package policy id; policy_ids name AgentPolicy resources.
 *
 * The comparison is semantic (wire-facts 6.3): the server stores every input and stream of the
 * package with its defaults, so the desired side is expanded with the package info the same way
 * (one package-info GET per package version, cached) and the live side is read in the same
 * simplified shape. A manifest that names two streams therefore matches the server's fully
 * expanded policy, while a var changed on the server still shows.
 *
 * Password vars are secrets: the server answers them as secret references (wire-facts 6.3), so,
 * like connector secrets, they are never compared, always sent with an update, and exported as
 * ${env:NAME} placeholders.
 */

const PATH = '/api/fleet/package_policies';
const PAGE_SIZE = 1000;

function streamState(s: any): StreamState {
  const vars = cleanVars(s?.vars);
  return { enabled: s?.enabled !== false, ...(vars ? { vars } : {}) };
}

/** The live inputs as the simplified map, whichever format the server answered in. */
export function liveInputs(inputs: unknown): InputsState {
  const out: InputsState = {};
  if (Array.isArray(inputs)) {
    // Legacy form: an array, vars as {type, value}, streams keyed by their dataset.
    const values = (vars: any) => (isPlainObject(vars) ? Object.fromEntries(Object.entries(vars).map(([k, v]: [string, any]) => [k, v?.value])) : undefined);
    for (const input of inputs as any[]) {
      const key = input.policy_template ? `${input.policy_template}-${input.type}` : input.type;
      const streams: Record<string, StreamState> = {};
      for (const s of input.streams ?? []) streams[s.data_stream.dataset] = streamState({ ...s, vars: values(s.vars) });
      out[key] = { ...streamState({ ...input, vars: values(input.vars) }), streams };
    }
    return out;
  }
  for (const [key, input] of Object.entries(isPlainObject(inputs) ? inputs : {})) {
    const streams: Record<string, StreamState> = {};
    for (const [sk, s] of Object.entries(isPlainObject((input as any)?.streams) ? (input as any).streams : {})) streams[sk] = streamState(s);
    out[key] = { ...streamState(input), streams };
  }
  return out;
}

/**
 * The extra data streams as they compare: a set, where none, null and [] are all "none" (the
 * server answers what it stored, and an update clears them with [], see update).
 */
export function extraDatastreams(src: Record<string, any>): string[] | undefined {
  const value = src.additional_datastreams_permissions;
  return Array.isArray(value) && value.length > 0 ? asSet(value) : undefined;
}

/** The fields that are compared as written (everything but inputs and vars). */
function commonFields(src: Record<string, any>): Record<string, any> {
  const policyIds = Array.isArray(src.policy_ids) ? src.policy_ids : typeof src.policy_id === 'string' ? [src.policy_id] : [];
  const extra = extraDatastreams(src);
  return {
    // The server stores the name trimmed (package_policy.ts create and update).
    name: typeof src.name === 'string' ? src.name.trim() : src.name,
    ...(src.description ? { description: src.description } : {}),
    // The server stores '' for a policy that inherits the agent policy's namespace.
    namespace: src.namespace ?? '',
    policy_ids: asSet(policyIds),
    package: { name: src.package?.name, version: src.package?.version },
    ...(src.output_id !== undefined && src.output_id !== null ? { output_id: src.output_id } : {}),
    ...(extra ? { additional_datastreams_permissions: extra } : {}),
  };
}

export function desiredState(spec: Record<string, any>, run: RunScope): { vars?: Vars; inputs: InputsState } {
  const pkg = cachedPackageInfo(run, spec.package?.name, spec.package?.version);
  if (pkg) return expandSimplified(pkg, spec);
  // Without package info (a package version nothing live uses yet) the manifest is taken as written.
  const vars = cleanVars(spec.vars);
  return { ...(vars ? { vars } : {}), inputs: liveInputs(spec.inputs) };
}

/** Both sides of the comparison without secret vars (write-only: the server never shows them). */
export function withoutSecretVars<T extends { vars?: Vars; inputs: InputsState }>(spec: Record<string, any>, state: T, run: RunScope): T {
  const copy = structuredClone(state);
  mapSecretVars(cachedPackageInfo(run, spec.package?.name, spec.package?.version), copy, () => undefined);
  if (copy.vars && Object.keys(copy.vars).length === 0) delete copy.vars;
  return copy;
}

/** A policy's vars and inputs as they compare, from a manifest's spec (secret vars left out). */
export function desiredVarsAndInputs(spec: Record<string, any>, run: RunScope): { vars?: Vars; inputs: InputsState } {
  const { vars, inputs } = withoutSecretVars(spec, desiredState(spec, run), run);
  return { ...(vars ? { vars } : {}), inputs };
}

/** The same from a policy the server returned. */
export function liveVarsAndInputs(body: Record<string, any>, run: RunScope): { vars?: Vars; inputs: InputsState } {
  const vars = cleanVars(body.vars);
  return withoutSecretVars(body, { ...(vars ? { vars } : {}), inputs: liveInputs(body.inputs) }, run);
}

export function packagePolicyEnvName(id: string, scope: { input?: string; stream?: string }, name: string): string {
  return ['SVCFORM_PACKAGE_POLICY', id, scope.stream ?? scope.input ?? '', name].filter(Boolean).join('_').toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/**
 * The simplified body for create and update. The server takes either the legacy body or the
 * simplified one, and refuses a mix (wire-facts 15 fact 2): a simplified body has no `version`,
 * `enabled` or `overrides`. It always carries `inputs`, so that an update rebuilds the policy from
 * the package defaults plus the manifest: the server merges a body without inputs onto the stored
 * policy, which would keep inputs changed outside Git. The package version is `package.version`;
 * a new one there upgrades the policy.
 */
function writeBody(res: Resource): Record<string, any> {
  const body = structuredClone(res.spec);
  body.inputs = body.inputs ?? {};
  return body;
}

/** Every package policy of a space, in the simplified format (agentless ones included). */
export function listPackagePolicies(ctx: AdapterContext, space: string): Promise<Array<Record<string, any>>> {
  return listAllPages<Record<string, any>>(ctx.api, {
    path: PATH,
    space,
    query: { format: 'simplified', sortField: 'name', sortOrder: 'asc' },
    sizeParam: 'perPage',
    pageSize: PAGE_SIZE,
    items: (body) => body.items ?? [],
    total: (body) => body.total ?? 0,
  });
}

export const packagePolicyAdapter: KindAdapter = {
  kind: 'PackagePolicy',
  schema: 'PackagePolicy.schema.json',
  referenceKinds: ['AgentPolicy', 'IntegrationPackage'],
  area: AREAS.fleet,
  setFields: ['/policy_ids', '/additional_datastreams_permissions'],

  references(spec): Reference[] {
    const ids: unknown[] = Array.isArray(spec.policy_ids) ? spec.policy_ids : [];
    // Refused when missing: Fleet reads each agent policy a package policy names and answers 404
    // "Agent policy ... not found" (K-FLEET package policy create; the emulator's fleet area).
    const policies = ids.flatMap((id, i): Reference[] => (typeof id === 'string' ? [{ kind: 'AgentPolicy', name: id, path: ['spec', 'policy_ids', i], whenMissing: 'refused' }] : []));
    // The package is installed before the policy and uninstalled after it. Installed when missing:
    // the server installs a package a new policy names (wire-facts §16 #9), so a policy needs no
    // IntegrationPackage manifest.
    const pkg: Reference[] = typeof spec.package?.name === 'string' ? [{ kind: 'IntegrationPackage', name: spec.package.name, path: ['spec', 'package', 'name'], whenMissing: 'installed' }] : [];
    return [...policies, ...pkg];
  },

  /**
   * Creating a policy installs its package version when an older one is installed (package_policy.ts
   * create -> ensureInstalledPackage, isPackageVersionOrLaterInstalled): a policy newer than the
   * version an IntegrationPackage pins moves the installation past the pin, and the next apply
   * downgrades it under the policy.
   */
  checkAmong(res, declared): CheckIssue[] {
    const { name, version } = res.spec.package ?? {};
    if (typeof name !== 'string' || typeof version !== 'string') return [];
    const pins = declared('IntegrationPackage', name).map((p) => p.spec.version).filter((v): v is string => typeof v === 'string');
    const older = pins.find((pin) => compareVersions(version, pin) > 0);
    if (older === undefined) return [];
    return [{
      path: ['spec', 'package', 'version'],
      severity: 'warning',
      message: `package ${name} ${version} is newer than the ${older} its IntegrationPackage pins: creating this policy makes the server install ${version}, and the next apply would downgrade it under the policy; pin the same version in both`,
    }];
  },

  async list(ctx: AdapterContext, space: string): Promise<LiveObject[]> {
    const items = await listPackagePolicies(ctx, space);
    const versions = new Map<string, { name: string; version: string }>();
    for (const item of items) if (item.package?.name) versions.set(`${item.package.name}@${item.package.version}`, item.package);
    await Promise.all([...versions.values()].map((p) => loadPackageInfo(ctx, space, p.name, p.version)));
    return items.map((body) => ({
      kind: 'PackagePolicy',
      space,
      name: body.id,
      body,
      ...(body.is_managed ? { readOnly: 'package policy of a managed (hosted) agent policy' } : {}),
    }));
  },

  normalizeDesired(res: Resource, run: RunScope) {
    return { ...commonFields(res.spec), ...desiredVarsAndInputs(res.spec, run) };
  },

  normalizeLive(live: LiveObject, run: RunScope) {
    return { ...commonFields(live.body), ...liveVarsAndInputs(live.body, run) };
  },

  hasWriteOnly(res: Resource, run: RunScope) {
    let found = false;
    const state = { vars: cleanVars(res.spec.vars), inputs: structuredClone(res.spec.inputs ?? {}) };
    mapSecretVars(cachedPackageInfo(run, res.spec.package?.name, res.spec.package?.version), state, (_scope, _name, value) => {
      found = true;
      return value;
    });
    return found;
  },

  async create(ctx: AdapterContext, res: Resource) {
    await ctx.api.request({
      method: 'POST',
      path: PATH,
      space: res.space,
      query: { format: 'simplified' },
      body: { id: res.name, ...writeBody(res) },
      idempotent: true,
    });
    // So that the created policy compares semantically even before the next listing.
    if (res.spec.package?.name) await loadPackageInfo(ctx, res.space, res.spec.package.name, res.spec.package.version);
  },

  async update(ctx: AdapterContext, res: Resource, live: LiveObject) {
    if (res.spec.package?.name !== live.body.package?.name) {
      // The package of a policy cannot change (wire-facts 14: replace-forcing): delete, then create.
      await packagePolicyAdapter.delete(ctx, live);
      await packagePolicyAdapter.create(ctx, res);
      return;
    }
    const body = writeBody(res);
    // The server rebuilds inputs from the body but keeps attributes a body leaves out: clear them.
    body.namespace = body.namespace ?? '';
    if (body.description === undefined && live.body.description) body.description = '';
    if (body.output_id === undefined && live.body.output_id) body.output_id = null;
    // Cleared with [], not null: a simplified body's null is dropped before the write, which then
    // keeps the stored list (simplified_package_policy_helper.ts sets the field only when truthy).
    if (body.additional_datastreams_permissions === undefined && extraDatastreams(live.body)) body.additional_datastreams_permissions = [];
    await ctx.api.request({
      method: 'PUT',
      path: `${PATH}/${encodeURIComponent(live.name)}`,
      space: live.space,
      query: { format: 'simplified' },
      body,
    });
    if (res.spec.package?.name) await loadPackageInfo(ctx, res.space, res.spec.package.name, res.spec.package.version);
  },

  async delete(ctx: AdapterContext, live: LiveObject) {
    await ctx.api.request({ method: 'DELETE', path: `${PATH}/${encodeURIComponent(live.name)}`, space: live.space, accept: [404] });
  },

  toSpec(live: LiveObject, run: RunScope) {
    const common = commonFields(live.body);
    const spec: Record<string, any> = { name: common.name };
    if (common.description) spec.description = common.description;
    if (common.namespace) spec.namespace = common.namespace;
    spec.policy_ids = common.policy_ids;
    spec.package = common.package;
    if (common.output_id !== undefined) spec.output_id = common.output_id;
    const vars = cleanVars(live.body.vars);
    const inputs = liveInputs(live.body.inputs);
    const pkg = cachedPackageInfo(run, common.package.name, common.package.version);
    const body = pkg ? minimalSimplified(pkg, { ...(vars ? { vars } : {}), inputs }) : { ...(vars ? { vars } : {}), inputs };
    const variables: Array<{ name: string; description: string }> = [];
    mapSecretVars(pkg, body, (scope, name) => {
      const env = packagePolicyEnvName(live.name, scope, name);
      const where = scope.stream ? `stream ${scope.stream} of input ${scope.input}` : scope.input ? `input ${scope.input}` : 'the package';
      variables.push({ name: env, description: `password var ${name} of ${where} in package policy ${live.name}; the server never returns it` });
      return `\${env:${env}}`;
    });
    if (body.vars) spec.vars = body.vars;
    if (body.inputs) spec.inputs = body.inputs;
    if (common.additional_datastreams_permissions) spec.additional_datastreams_permissions = common.additional_datastreams_permissions;
    return { spec, variables };
  },
};
