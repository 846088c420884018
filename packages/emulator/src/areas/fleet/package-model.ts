import { badRequest } from '../../errors.js';
import type { CatalogPackage, VarDef } from './package-types.js';
import type { PackagePolicyRecord, StoredInput, StoredStream, VarRecord } from './state.js';

/**
 * How the server turns package info plus a (simplified) package policy body into the stored
 * policy: every input of every policy template and every stream of the package is present, vars
 * carry the package defaults, and streams are enabled per the package's defaults. The body then
 * overrides what it names. Kept apart from the routes so create, update, upgrade and the agent
 * policy's `sys_monitoring` share it.
 */

export interface SimplifiedStreamBody {
  enabled?: boolean;
  vars?: Record<string, unknown>;
}
export interface SimplifiedInputBody extends SimplifiedStreamBody {
  streams?: Record<string, SimplifiedStreamBody>;
}
export type SimplifiedInputs = Record<string, SimplifiedInputBody>;

function varsFrom(defs: VarDef[] | undefined): VarRecord | undefined {
  if (!defs || defs.length === 0) return undefined;
  const out: VarRecord = {};
  for (const d of defs) {
    // A multi-valued variable without a default starts as an empty list, as the server does.
    const value = !d.default && d.multi ? [] : d.default;
    out[d.name] = { type: d.type, ...(value !== undefined ? { value: structuredClone(value) } : {}) };
  }
  return out;
}

export function inputKey(input: { policy_template: string; type: string }): string {
  return `${input.policy_template}-${input.type}`;
}

/**
 * The data streams a template's inputs collect: those its `data_streams` name by folder, or all
 * (package_to_package_policy.ts packageToPackagePolicyInputs, getStreamsForInputType).
 */
function templateDataStreams(pkg: CatalogPackage, template: CatalogPackage['policy_templates'][number]) {
  const paths = pkg.type === 'integration' && template.data_streams?.length ? template.data_streams : undefined;
  return paths ? pkg.data_streams.filter((ds) => ds.path !== undefined && paths.includes(ds.path)) : pkg.data_streams;
}

export function defaultInputs(pkg: CatalogPackage, packagePolicyId: string): StoredInput[] {
  const inputs: StoredInput[] = [];
  for (const template of pkg.policy_templates) {
    for (const input of template.inputs) {
      const streams: StoredStream[] = [];
      for (const ds of templateDataStreams(pkg, template)) {
        for (const s of ds.streams ?? []) {
          if (s.input !== input.type) continue;
          const vars = varsFrom(s.vars);
          streams.push({
            id: `${input.type}-${ds.dataset}-${packagePolicyId}`,
            enabled: s.enabled !== false,
            data_stream: { type: ds.type, dataset: ds.dataset },
            ...(vars ? { vars } : {}),
          });
        }
      }
      // Every input keeps its own vars, however many templates the package has: the server copies
      // them whenever the input declares some (packageToPackagePolicyInputs, common/services/
      // package_to_package_policy.ts); kubernetes' nine templates have input vars such as `condition`.
      const vars = varsFrom(input.vars);
      inputs.push({
        type: input.type,
        policy_template: template.name,
        // An input is on when one of its streams is on (or when it has no streams at all).
        enabled: streams.length ? streams.some((s) => s.enabled) : true,
        ...(vars ? { vars } : {}),
        streams,
      });
    }
  }
  return inputs;
}

export function defaultPackageVars(pkg: CatalogPackage): VarRecord | undefined {
  return varsFrom(pkg.vars);
}

function assignVars(given: Record<string, unknown>, record: VarRecord | undefined, where: string): void {
  for (const [key, value] of Object.entries(given)) {
    if (!record || !record[key]) throw badRequest(`Variable ${where}:${key} not found`);
    record[key].value = value;
  }
}

/** Applies a simplified body's vars and inputs onto freshly expanded defaults (the server's rules). */
export function applySimplified(
  inputs: StoredInput[],
  packageVars: VarRecord | undefined,
  body: { vars?: Record<string, unknown>; inputs?: SimplifiedInputs },
): void {
  if (body.vars) assignVars(body.vars, packageVars, '');
  const byKey = new Map(inputs.map((i) => [inputKey(i), i]));
  for (const [key, given] of Object.entries(body.inputs ?? {})) {
    const input = byKey.get(key);
    if (!input) throw badRequest(`Input not found: ${key}`);
    // Naming an input turns it on unless the body says enabled: false.
    input.enabled = given.enabled !== false;
    if (given.vars) assignVars(given.vars, input.vars, key);
    for (const [streamKey, streamGiven] of Object.entries(given.streams ?? {})) {
      const stream = input.streams.find((s) => s.data_stream.dataset === streamKey);
      if (!stream) throw badRequest(`Stream not found ${key}: ${streamKey}`);
      stream.enabled = streamGiven?.enabled !== false;
      if (streamGiven?.vars) assignVars(streamGiven.vars, stream.vars, `${key} ${streamKey}`);
    }
  }
}

/**
 * An enabled input whose streams are all disabled is stored disabled (the package policy routes'
 * alignInputsAndStreams, fleet server/routes/package_policy/utils).
 */
export function alignInputsAndStreams(inputs: StoredInput[]): void {
  for (const input of inputs) if (input.enabled && input.streams.length > 0 && input.streams.every((s) => !s.enabled)) input.enabled = false;
}

function isEmptyValue(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

function varProblem(def: VarDef, value: unknown): string | undefined {
  if (isEmptyValue(value)) return def.required ? `${def.title} is required` : undefined;
  if (def.multi && !Array.isArray(value)) return `${def.title} must be an array`;
  const items = def.multi ? (value as unknown[]) : [value];
  for (const item of items) {
    if (def.type === 'bool' && typeof item !== 'boolean') return `${def.title} must be a boolean`;
    if (def.type === 'integer' && !Number.isInteger(typeof item === 'string' ? Number(item) : item)) return `${def.title} is an invalid integer`;
  }
  return undefined;
}

/** The server validates enabled streams and inputs against the package's var definitions. */
export function validateAgainstPackage(pkg: CatalogPackage, inputs: StoredInput[], packageVars: VarRecord | undefined): void {
  const problems: string[] = [];
  for (const def of pkg.vars ?? []) {
    const p = varProblem(def, packageVars?.[def.name]?.value);
    if (p) problems.push(`vars.${def.name}: ${p}`);
  }
  // validatePackagePolicy files an input's results under `<template>-<type>` when the package has
  // several templates (doesPackageHaveIntegrations), else under its type; the message names that key.
  const severalTemplates = pkg.policy_templates.length > 1;
  for (const input of inputs) {
    if (!input.enabled) continue;
    const key = severalTemplates ? inputKey(input) : input.type;
    const inputDef = pkg.policy_templates.find((t) => t.name === input.policy_template)?.inputs.find((i) => i.type === input.type);
    // Input vars are validated for every package, however many templates it has.
    for (const def of inputDef?.vars ?? []) {
      const p = varProblem(def, input.vars?.[def.name]?.value);
      if (p) problems.push(`inputs.${key}.vars.${def.name}: ${p}`);
    }
    for (const stream of input.streams) {
      if (!stream.enabled) continue;
      const streamDef = pkg.data_streams.find((d) => d.dataset === stream.data_stream.dataset)?.streams?.find((s) => s.input === input.type);
      for (const def of streamDef?.vars ?? []) {
        const p = varProblem(def, stream.vars?.[def.name]?.value);
        if (p) problems.push(`inputs.${key}.streams.${stream.data_stream.dataset}.vars.${def.name}: ${p}`);
      }
    }
  }
  if (problems.length) throw badRequest(`Package policy is invalid: ${problems.join('\n')}`);
}

/** Turns a (validated) legacy `inputs` array into the simplified map, so both formats share one path. */
export function legacyInputsToSimplified(inputs: any[]): SimplifiedInputs {
  const values = (vars: any): Record<string, unknown> | undefined =>
    vars && typeof vars === 'object' ? Object.fromEntries(Object.entries(vars).map(([k, v]: [string, any]) => [k, v?.value])) : undefined;
  const out: SimplifiedInputs = {};
  for (const input of inputs) {
    const key = `${input.policy_template ?? ''}${input.policy_template ? '-' : ''}${input.type}`;
    const streams: Record<string, SimplifiedStreamBody> = {};
    for (const s of input.streams ?? []) {
      streams[s.data_stream.dataset] = { enabled: s.enabled, ...(s.vars ? { vars: values(s.vars) } : {}) };
    }
    out[key] = { enabled: input.enabled, ...(input.vars ? { vars: values(input.vars) } : {}), streams };
  }
  return out;
}

function simplifiedVars(vars: VarRecord | undefined): Record<string, unknown> | undefined {
  if (!vars) return undefined;
  return Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, v.value]));
}

/** The stream configuration the agent receives: here, the stream's variable values. */
function compiledStream(stream: StoredStream): Record<string, unknown> {
  const out: Record<string, unknown> = { data_stream: { dataset: stream.data_stream.dataset } };
  for (const [k, v] of Object.entries(stream.vars ?? {})) if (v.value !== undefined && v.type !== 'yaml') out[k] = v.value;
  return out;
}

function serverFields(record: PackagePolicyRecord, space: string): Record<string, unknown> {
  const { seq: _seq, inputs: _inputs, vars: _vars, ...rest } = record;
  return {
    ...rest,
    policy_id: record.policy_ids[0] ?? null,
    secret_references: [],
    spaceIds: [space],
  };
}

/** The default (legacy) response form: inputs as an array, vars as `{type, value}`. */
export function legacyForm(record: PackagePolicyRecord, space: string): Record<string, unknown> {
  return {
    ...serverFields(record, space),
    inputs: record.inputs.map((input) => ({
      ...input,
      streams: input.streams.map((s) => (s.enabled ? { ...s, compiled_stream: compiledStream(s) } : s)),
    })),
    ...(record.vars ? { vars: record.vars } : {}),
  };
}

/** `format=simplified`: inputs keyed `<policy_template>-<type>`, streams keyed by dataset, plain var values. */
export function simplifiedForm(record: PackagePolicyRecord, space: string): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const input of record.inputs) {
    const streams: Record<string, unknown> = {};
    for (const s of input.streams) {
      streams[s.data_stream.dataset] = { enabled: s.enabled, vars: simplifiedVars(s.vars) };
    }
    inputs[inputKey(input)] = { enabled: input.enabled, vars: simplifiedVars(input.vars), streams };
  }
  return { ...serverFields(record, space), inputs, ...(record.vars ? { vars: simplifiedVars(record.vars) } : {}) };
}

export function formatPackagePolicy(record: PackagePolicyRecord, space: string, format: 'simplified' | 'legacy' | undefined): Record<string, unknown> {
  // JSON round trip: undefined values (vars without a default) leave the answer as on the wire.
  return JSON.parse(JSON.stringify(format === 'simplified' ? simplifiedForm(record, space) : legacyForm(record, space)));
}

/**
 * Re-expands a stored policy for another package version, keeping the values and switches it
 * already had wherever the new version still has the same input, stream and variable (upgrade).
 */
export function carryOver(previous: StoredInput[], next: StoredInput[]): void {
  for (const input of next) {
    const old = previous.find((i) => inputKey(i) === inputKey(input));
    if (!old) continue;
    input.enabled = old.enabled;
    for (const [k, v] of Object.entries(old.vars ?? {})) if (input.vars?.[k]) input.vars[k].value = v.value;
    for (const stream of input.streams) {
      const oldStream = old.streams.find((s) => s.data_stream.dataset === stream.data_stream.dataset);
      if (!oldStream) continue;
      stream.enabled = oldStream.enabled;
      for (const [k, v] of Object.entries(oldStream.vars ?? {})) if (stream.vars?.[k]) stream.vars[k].value = v.value;
    }
  }
}
