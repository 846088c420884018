import type { AdapterContext } from '../types.js';
import { RunKey, type RunScope } from '../run-scope.js';
import { deepEqual, isPlainObject } from '../normalize.js';

/**
 * Package info for the semantic comparison of package policies (wire-facts 6.3): the server
 * expands every input and stream of the package, filling var defaults and enabling streams per the
 * package, so a manifest naming only some of them is compared after the same expansion.
 *
 * Package info is read once per run and distinct package version, however many policies use it,
 * and kept in the run scope: two targets may hold different packages under one name@version
 * (custom uploads), so nothing outlives the run.
 */

export interface PackageVarDef {
  name: string;
  type?: string;
  multi?: boolean;
  default?: unknown;
  /** Stored in the secret store (as a reference) where the server has one; any type may be. */
  secret?: boolean;
}

export interface PackageInfo {
  name: string;
  version: string;
  /**
   * `data_streams`: the folders of the data streams the template's inputs collect (all when
   * absent). An input package's template has one `input` instead of `inputs`, with its data
   * stream's `type` and its `vars` (normalizedPackage).
   */
  policy_templates?: Array<{ name: string; inputs?: Array<{ type: string; vars?: PackageVarDef[] }>; data_streams?: string[]; input?: string; type?: string; vars?: PackageVarDef[] }>;
  data_streams?: Array<{ type?: string; dataset: string; path?: string; streams?: Array<{ input: string; enabled?: boolean; vars?: PackageVarDef[] }> }>;
  vars?: PackageVarDef[];
}

export type Vars = Record<string, unknown>;
export interface StreamState {
  enabled: boolean;
  vars?: Vars;
}
export interface InputState extends StreamState {
  streams: Record<string, StreamState>;
}
export type InputsState = Record<string, InputState>;

const PACKAGE_INFO = new RunKey('Fleet package info', () => ({
  known: new Map<string, PackageInfo>(),
  pending: new Map<string, Promise<PackageInfo | undefined>>(),
}));

const keyOf = (name: string, version: string) => `${name}@${version}`;

/** Package info this run has read already (the listing reads that of every live policy's package). */
export function cachedPackageInfo(run: RunScope, name: unknown, version: unknown): PackageInfo | undefined {
  return typeof name === 'string' && typeof version === 'string' ? run.get(PACKAGE_INFO).known.get(keyOf(name, version)) : undefined;
}

/** One GET per package version and run; concurrent callers share it. Unknown packages give undefined. */
export async function loadPackageInfo(ctx: AdapterContext, space: string, name: string, version: string): Promise<PackageInfo | undefined> {
  const { known: cache, pending } = ctx.run.get(PACKAGE_INFO);
  const key = keyOf(name, version);
  const hit = cache.get(key);
  if (hit) return hit;
  let inflight = pending.get(key);
  if (!inflight) {
    inflight = (async () => {
      const res = await ctx.api.request<{ item: PackageInfo }>({
        method: 'GET',
        path: `/api/fleet/epm/packages/${encodeURIComponent(name)}/${encodeURIComponent(version)}`,
        space,
        accept: [404],
      });
      if (res.status === 404 || !res.body?.item) return undefined;
      cache.set(key, res.body.item);
      return res.body.item;
    })().finally(() => pending.delete(key));
    pending.set(key, inflight);
  }
  return inflight;
}

/** Plain var values; values the server would leave unset (undefined) dropped, an empty map as undefined. */
export function cleanVars(vars: unknown): Vars | undefined {
  if (!isPlainObject(vars)) return undefined;
  const out: Vars = {};
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

function varDefaults(defs: PackageVarDef[] | undefined): Vars | undefined {
  if (!defs?.length) return undefined;
  const out: Vars = {};
  // A multi-valued var without a default starts as [], as the server does.
  for (const d of defs) out[d.name] = !d.default && d.multi ? [] : structuredClone(d.default);
  return cleanVars(out);
}

/**
 * The package as the server expands policies from it. An input package's template (one `input`,
 * no data streams) becomes a template of that one input and a data stream `<package>.<template>`
 * of one stream holding the template's vars, `data_stream.dataset` added when the package
 * declares none (fleet common/services policy_template.ts getNormalizedInputs and
 * getNormalizedDataStreams, addDatasetVarIfNotPresent).
 */
export function normalizedPackage(pkg: PackageInfo): PackageInfo {
  let normalized = NORMALIZED.get(pkg);
  if (!normalized) NORMALIZED.set(pkg, (normalized = normalizeInputTemplates(pkg)));
  return normalized;
}

/** Package info is read once per version and run, and asked about for every var of every policy. */
const NORMALIZED = new WeakMap<PackageInfo, PackageInfo>();

function normalizeInputTemplates(pkg: PackageInfo): PackageInfo {
  const templates = pkg.policy_templates ?? [];
  if (!templates.some((t) => typeof t.input === 'string' && !t.inputs)) return pkg;
  const dataStreams = [...(pkg.data_streams ?? [])];
  const normalized = templates.map((t) => {
    if (typeof t.input !== 'string' || t.inputs) return t;
    const dataset = `${pkg.name}.${t.name}`;
    const vars = [...(t.vars ?? [])];
    if (!vars.some((v) => v.name === 'data_stream.dataset')) vars.push({ name: 'data_stream.dataset', type: 'text', default: dataset });
    dataStreams.push({ type: t.type ?? 'logs', dataset, streams: [{ input: t.input, vars }] });
    return { name: t.name, inputs: [{ type: t.input }] };
  });
  return { ...pkg, policy_templates: normalized, data_streams: dataStreams };
}

/** Every input and stream of the package with the server's defaults. */
export function packageDefaults(info: PackageInfo): { vars?: Vars; inputs: InputsState } {
  const pkg = normalizedPackage(info);
  const templates = pkg.policy_templates ?? [];
  const inputs: InputsState = {};
  for (const template of templates) {
    // A template that names its data streams collects only those (the server's
    // packageToPackagePolicyInputs): aws, azure and gcp give each template its own.
    const paths = template.data_streams?.length ? template.data_streams : undefined;
    const dataStreams = (pkg.data_streams ?? []).filter((ds) => !paths || (ds.path !== undefined && paths.includes(ds.path)));
    for (const input of template.inputs ?? []) {
      const streams: Record<string, StreamState> = {};
      for (const ds of dataStreams) {
        for (const s of ds.streams ?? []) {
          if (s.input !== input.type) continue;
          const vars = varDefaults(s.vars);
          streams[ds.dataset] = { enabled: s.enabled !== false, ...(vars ? { vars } : {}) };
        }
      }
      // An input's own vars and their defaults, however many templates the package has: the
      // server copies them whenever the input declares some (packageToPackagePolicyInputs), so
      // leaving them out here would plan their defaults as a change forever.
      const vars = varDefaults(input.vars);
      const anyStream = Object.values(streams);
      inputs[`${template.name}-${input.type}`] = {
        enabled: anyStream.length ? anyStream.some((s) => s.enabled) : true,
        ...(vars ? { vars } : {}),
        streams,
      };
    }
  }
  const vars = varDefaults(pkg.vars);
  return { ...(vars ? { vars } : {}), inputs };
}

function mergeVars(base: Vars | undefined, given: unknown): Vars | undefined {
  if (!isPlainObject(given)) return base;
  return cleanVars({ ...(base ?? {}), ...given });
}

/**
 * What the server stores for a simplified body: the package defaults, then every input and stream
 * the body names is switched on unless it says `enabled: false`, and the vars it names replaced.
 */
export function expandSimplified(pkg: PackageInfo, spec: { vars?: unknown; inputs?: unknown }): { vars?: Vars; inputs: InputsState } {
  const { vars: defaultVars, inputs } = packageDefaults(pkg);
  const vars = mergeVars(defaultVars, spec.vars);
  for (const [key, given] of Object.entries(isPlainObject(spec.inputs) ? spec.inputs : {})) {
    const g = isPlainObject(given) ? given : {};
    // An input the package does not have is kept as written: the server will refuse it on apply.
    const input: InputState = inputs[key] ?? { enabled: true, streams: {} };
    input.enabled = g.enabled !== false;
    const iv = mergeVars(input.vars, g.vars);
    if (iv) input.vars = iv;
    for (const [sk, sGiven] of Object.entries(isPlainObject(g.streams) ? g.streams : {})) {
      const sg = isPlainObject(sGiven) ? sGiven : {};
      const stream: StreamState = input.streams[sk] ?? { enabled: true };
      stream.enabled = sg.enabled !== false;
      const sv = mergeVars(stream.vars, sg.vars);
      if (sv) stream.vars = sv;
      input.streams[sk] = stream;
    }
    inputs[key] = input;
  }
  // An enabled input whose streams are all disabled is stored disabled (alignInputsAndStreams).
  for (const input of Object.values(inputs)) {
    const streams = Object.values(input.streams);
    if (input.enabled && streams.length > 0 && streams.every((s) => !s.enabled)) input.enabled = false;
  }
  return { ...(vars ? { vars } : {}), inputs };
}

function changedVars(live: Vars | undefined, defaults: Vars | undefined): Vars | undefined {
  const out: Vars = {};
  for (const [k, v] of Object.entries(live ?? {})) if (!deepEqual(v, defaults?.[k])) out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

/**
 * The smallest simplified body that expands back to `live` (for export): inputs, streams and vars
 * equal to the package defaults are left out; a named input or stream is on unless written off.
 */
export function minimalSimplified(pkg: PackageInfo, live: { vars?: Vars; inputs: InputsState }): { vars?: Vars; inputs?: Record<string, any> } {
  const defaults = packageDefaults(pkg);
  const inputs: Record<string, any> = {};
  for (const [key, input] of Object.entries(live.inputs)) {
    const d = defaults.inputs[key];
    if (d && deepEqual(input, d)) continue;
    const entry: Record<string, any> = {};
    if (!input.enabled) entry.enabled = false;
    const vars = changedVars(input.vars, d?.vars);
    if (vars) entry.vars = vars;
    const streams: Record<string, any> = {};
    for (const [sk, stream] of Object.entries(input.streams)) {
      const ds = d?.streams[sk];
      if (ds && deepEqual(stream, ds)) continue;
      const se: Record<string, any> = {};
      if (!stream.enabled) se.enabled = false;
      const sv = changedVars(stream.vars, ds?.vars);
      if (sv) se.vars = sv;
      streams[sk] = se;
    }
    if (Object.keys(streams).length) entry.streams = streams;
    inputs[key] = entry;
  }
  const vars = changedVars(live.vars, defaults.vars);
  return { ...(vars ? { vars } : {}), ...(Object.keys(inputs).length ? { inputs } : {}) };
}

/** Where a var sits in a simplified policy: package level, or an input, or a stream of an input. */
type VarScope = { input?: string; stream?: string };

function isSecretRef(v: unknown): boolean {
  return isPlainObject(v) && (v as Record<string, unknown>).isSecretRef === true;
}

/**
 * Whether the package declares this var secret: `secret: true` (what the server's secrets service
 * goes by, on a var of any type) or a password. The server answers such a var as a reference when
 * it has secret storage and in clear when it has none; svcform treats it as write-only either way.
 */
function isSecretVar(info: PackageInfo | undefined, scope: VarScope, name: string): boolean {
  if (!info) return false;
  const pkg = normalizedPackage(info);
  const typed = (defs: PackageVarDef[] | undefined) => defs?.some((d) => d.name === name && (d.secret === true || d.type === 'password')) ?? false;
  if (!scope.input) return typed(pkg.vars);
  for (const template of pkg.policy_templates ?? []) {
    for (const input of template.inputs ?? []) {
      if (`${template.name}-${input.type}` !== scope.input) continue;
      if (!scope.stream) return typed(input.vars);
      const ds = pkg.data_streams?.find((d) => d.dataset === scope.stream);
      return typed(ds?.streams?.find((s) => s.input === input.type)?.vars);
    }
  }
  return false;
}

/**
 * Calls `visit` for every secret var of a simplified policy: secret vars of the package, and any
 * value the server answered as a secret reference. The callback returns the replacement value, or
 * undefined to drop the var.
 */
export function mapSecretVars(
  pkg: PackageInfo | undefined,
  state: { vars?: Vars; inputs?: Record<string, any> },
  visit: (scope: VarScope, name: string, value: unknown) => unknown,
): void {
  const apply = (vars: Vars | undefined, scope: VarScope) => {
    if (!vars) return;
    for (const [name, value] of Object.entries(vars)) {
      if (!isSecretRef(value) && !isSecretVar(pkg, scope, name)) continue;
      const next = visit(scope, name, value);
      if (next === undefined) delete vars[name];
      else vars[name] = next;
    }
  };
  apply(state.vars, {});
  for (const [key, input] of Object.entries(state.inputs ?? {})) {
    apply(input?.vars, { input: key });
    for (const [sk, stream] of Object.entries((input?.streams ?? {}) as Record<string, any>)) apply(stream?.vars, { input: key, stream: sk });
  }
}
