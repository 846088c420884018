import { badRequest, conflict } from '../../errors.js';
import type { EmuRequest } from '../../router.js';
import { validateRequest } from '../../config-schema.js';
import { inputKey, legacyInputsToSimplified, type SimplifiedInputs } from './package-model.js';
import { CreatePackagePolicyBody, UpdatePackagePolicyBody } from './package-policy-schemas.js';
import type { PackagePolicyWrite } from './records.js';
import type { PackagePolicyRecord } from './state.js';

/**
 * From a validated create or update body to one write, whichever format it came in. Which path a
 * body takes follows the server's handlers (x-pack/.../fleet/server/routes/package_policy/handlers.ts,
 * `isSimplifiedCreatePackagePolicyRequest`): `inputs` given as an array is the legacy format,
 * anything else is simplified. On update, only a body that carries a map of inputs is rebuilt from
 * the package; a body without inputs (either format) is merged onto the stored policy.
 */

type Body = Record<string, any>;

/** Legacy vars are `{type, value}`; the plain value is what the write needs. */
function varValues(vars: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!vars) return undefined;
  return Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, v && typeof v === 'object' && !Array.isArray(v) && 'value' in v ? (v as { value: unknown }).value : v]));
}

function policyIdsOf(body: Body): string[] | undefined {
  return body.policy_ids ?? (typeof body.policy_id === 'string' ? [body.policy_id] : undefined);
}

/**
 * `additional_datastreams_permissions` as the write keeps it (undefined: nothing sent, so an update
 * keeps the stored value). A simplified body passes through simplifiedPackagePolicytoNewPackagePolicy
 * (common/services/simplified_package_policy_helper.ts), which sets the field only when it is
 * truthy: a list (an empty one too) is stored, null is dropped. A legacy or merged body's value is
 * taken as sent, null included (handlers.ts spreads the body; enrichPolicyWithDefaultsFromPackage
 * copies it on create).
 */
function extraPermissions(body: Body, simplified: boolean): string[] | null | undefined {
  const value = body.additional_datastreams_permissions;
  return simplified ? (Array.isArray(value) ? value : undefined) : value;
}

/** The write every format shares; `base` fills what a merged update leaves out. */
function toWrite(body: Body, inputs: SimplifiedInputs | undefined, vars: Record<string, unknown> | undefined, base: PackagePolicyWrite | undefined, permissions: string[] | null | undefined): PackagePolicyWrite {
  const pkg = body.package ?? base?.package;
  if (!pkg) throw badRequest('Package is required');
  return {
    ...(base ?? {}),
    ...(body.id !== undefined ? { id: body.id } : {}),
    name: body.name ?? base?.name,
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.namespace !== undefined ? { namespace: body.namespace } : {}),
    policy_ids: policyIdsOf(body) ?? base?.policy_ids ?? [],
    ...(body.output_id !== undefined ? { output_id: body.output_id } : {}),
    package: { name: pkg.name, version: pkg.version },
    ...(vars !== undefined ? { vars } : {}),
    ...(inputs !== undefined ? { inputs } : {}),
    force: body.force === true,
    ...(body.supports_agentless !== undefined && body.supports_agentless !== null ? { supports_agentless: body.supports_agentless } : {}),
    ...(permissions !== undefined ? { additional_datastreams_permissions: permissions } : {}),
  };
}

/** A stored policy as a simplified write (the base a merged update is laid onto). */
function asWrite(record: PackagePolicyRecord): PackagePolicyWrite {
  const values = (vars: Record<string, { value?: unknown }> | undefined) => (vars ? Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, v.value])) : undefined);
  const inputs: SimplifiedInputs = {};
  for (const input of record.inputs) {
    inputs[inputKey(input)] = {
      enabled: input.enabled,
      ...(input.vars ? { vars: values(input.vars) } : {}),
      streams: Object.fromEntries(input.streams.map((s) => [s.data_stream.dataset, { enabled: s.enabled, ...(s.vars ? { vars: values(s.vars) } : {}) }])),
    };
  }
  return {
    name: record.name,
    ...(record.description !== undefined ? { description: record.description } : {}),
    namespace: record.namespace,
    policy_ids: record.policy_ids,
    ...(record.output_id !== undefined ? { output_id: record.output_id } : {}),
    package: { name: record.package.name, version: record.package.version },
    ...(record.vars ? { vars: values(record.vars) } : {}),
    inputs,
    ...(record.additional_datastreams_permissions !== undefined ? { additional_datastreams_permissions: record.additional_datastreams_permissions } : {}),
  };
}

/** POST body: refused unless it matches the legacy or the simplified create schema (wire-facts 15.2). */
export function createWrite(req: EmuRequest): PackagePolicyWrite {
  const body = validateRequest<Body>(CreatePackagePolicyBody, req.body ?? null);
  if (Array.isArray(body.inputs)) return toWrite(body, legacyInputsToSimplified(body.inputs), varValues(body.vars), undefined, extraPermissions(body, false));
  return toWrite(body, body.inputs, body.vars, undefined, extraPermissions(body, true));
}

/** PUT body: refused unless it matches the legacy or the simplified update schema (wire-facts 15.2). */
export function updateWrite(req: EmuRequest, existing: PackagePolicyRecord): PackagePolicyWrite {
  const body = validateRequest<Body>(UpdatePackagePolicyBody, req.body ?? null);
  // Only the legacy body knows `version`: the optimistic-locking token (wire-facts 6.2).
  if (body.version !== undefined && body.version !== existing.version) {
    throw conflict(`Saved object [ingest-package-policies/${existing.id}] conflict`);
  }
  if (body.inputs !== undefined && !Array.isArray(body.inputs)) return toWrite(body, body.inputs, body.vars, undefined, extraPermissions(body, true));
  const inputs = Array.isArray(body.inputs) ? legacyInputsToSimplified(body.inputs) : undefined;
  return toWrite(body, inputs, varValues(body.vars), asWrite(existing), extraPermissions(body, false));
}
