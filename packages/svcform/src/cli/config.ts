import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseManifestText } from '../manifest/load.js';
import { interpolate } from '../manifest/interpolate.js';
import { redactor } from '../manifest/redact.js';
import { CHECK_SWITCHES, type Diagnostic, type MissingReferencePolicy, type RepositoryChecks, type SourcePos } from '../manifest/types.js';
import type { ManageScope } from '../engine/ownership.js';
import type { IgnoreRule } from '../engine/ignore.js';
import { knownAreaNames, type AreaOverrides } from '../client/areas.js';
import { parsePointer } from '../common/pointer.js';
import { readEnvironments, type EnvironmentConfig } from './environments.js';

export interface SvcformConfig {
  /** Where the file was read from, if any. */
  file?: string;
  url?: string;
  space?: string;
  concurrency?: number;
  auth?: { apiKey?: string; username?: string; password?: string; token?: string };
  tls?: { caCert?: string; clientCert?: string; clientKey?: string };
  manage: ManageScope[];
  /** Fields owned outside Git for every object of a kind (added to each manifest's metadata.ignore). */
  ignore: IgnoreRule[];
  /** Per-area overrides of the in-flight limits and retry policies of client/areas.ts. */
  areas: AreaOverrides;
  /** Files listing the project's own field names (for query field checks), as written, with where they are named. */
  fields?: Array<{ path: string; pos: SourcePos }>;
  /**
   * `references: {missing: warn|error}`: what a reference the server accepts unchecked (a rule's
   * data_view_id) to an object neither the manifests nor the server hold is in a plan. Absent: warn.
   */
  references?: { missing: MissingReferencePolicy };
  /** Offline checks switched for every manifest or per kind (`checks:`); metadata.checks wins. */
  checks?: RepositoryChecks;
  /** What the embedded emulator's Fleet package registry reads (`emulator: {packages, registry}`); paths resolved against the file. */
  emulator?: { packages?: string[]; registry?: string };
  /** `environments:` by name (cli/environments.ts). */
  environments?: Map<string, EnvironmentConfig>;
  /** The environment `--env` chose: its URL, credentials, space and overlays replace the file's. */
  environment?: EnvironmentConfig;
}

const TOP_KEYS = new Set(['url', 'space', 'concurrency', 'auth', 'tls', 'manage', 'ignore', 'areas', 'fields', 'checks', 'references', 'emulator', 'environments']);

export class ConfigError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => `${d.pos.file}:${d.pos.line}:${d.pos.col}: ${d.message}`).join('\n'));
  }
}

/**
 * The configuration file: `--config FILE`, else `svcform.yaml` in the working directory, else
 * beside the first PATH argument (so `svcform plan examples/` uses examples/svcform.yaml).
 */
export function findConfigFile(explicit: string | undefined, paths: string[]): string | undefined {
  if (explicit) return resolve(explicit);
  for (const candidate of ['svcform.yaml', 'svcform.yml']) if (existsSync(candidate)) return resolve(candidate);
  const first = paths.find((p) => p !== '-');
  if (first && existsSync(first)) {
    const dir = statSync(first).isDirectory() ? first : dirname(first);
    for (const candidate of ['svcform.yaml', 'svcform.yml']) {
      const full = join(dir, candidate);
      if (existsSync(full)) return resolve(full);
    }
  }
  return undefined;
}

/** `root` bounds the files its ${file:...} references may read (default: the file's directory). */
export function loadConfig(file: string | undefined, knownKinds: string[], env: NodeJS.ProcessEnv = process.env, root?: string): SvcformConfig {
  if (!file) return { manage: [], ignore: [], areas: {} };
  if (!existsSync(file)) throw new ConfigError([{ severity: 'error', pos: { file, line: 1, col: 1 }, message: 'configuration file not found' }]);
  const parsed = parseManifestText(readFileSync(file, 'utf8'), file);
  if (parsed.diagnostics.length) throw new ConfigError(parsed.diagnostics);
  const doc = parsed.docs[0];
  if (!doc) return { file, manage: [], ignore: [], areas: {} };
  const errors: Diagnostic[] = [];
  const fail = (path: Array<string | number>, message: string) => errors.push({ severity: 'error', pos: doc.posOf(path), message });
  const { value, diagnostics } = interpolate(doc.value, { env, dir: doc.dir, root: root ?? doc.dir, redactor, posOf: doc.posOf });
  errors.push(...diagnostics);
  const raw = value as Record<string, any>;
  for (const key of Object.keys(raw)) if (!TOP_KEYS.has(key)) fail([key], `${key} is not a known setting (known: ${[...TOP_KEYS].join(', ')})`);
  if (raw.url !== undefined && typeof raw.url !== 'string') fail(['url'], 'url must be a string');
  if (raw.space !== undefined && typeof raw.space !== 'string') fail(['space'], 'space must be a string');
  if (raw.concurrency !== undefined && (!Number.isInteger(raw.concurrency) || raw.concurrency < 1)) fail(['concurrency'], 'concurrency must be an integer >= 1');
  const manage: ManageScope[] = [];
  if (raw.manage !== undefined && !Array.isArray(raw.manage)) fail(['manage'], 'manage must be a list of scopes');
  (Array.isArray(raw.manage) ? raw.manage : []).forEach((scope: any, i: number) => {
    if (!scope || typeof scope !== 'object') return fail(['manage', i], 'a manage scope must be a mapping with a kind');
    for (const key of Object.keys(scope)) if (!['kind', 'spaces', 'selector'].includes(key)) fail(['manage', i, key], `manage[${i}].${key} is not a known field (kind, spaces, selector)`);
    if (!knownKinds.includes(scope.kind)) fail(['manage', i, 'kind'], `manage[${i}].kind must be one of ${knownKinds.join(', ')}`);
    if (scope.spaces !== undefined && (!Array.isArray(scope.spaces) || !scope.spaces.every((s: unknown) => typeof s === 'string'))) {
      fail(['manage', i, 'spaces'], `manage[${i}].spaces must be a list of space ids`);
    }
    const sel = scope.selector;
    if (sel !== undefined) {
      if (typeof sel !== 'object' || sel === null) fail(['manage', i, 'selector'], `manage[${i}].selector must be a mapping`);
      else {
        for (const key of Object.keys(sel)) if (!['tags', 'namePrefix', 'names'].includes(key)) fail(['manage', i, 'selector', key], `manage[${i}].selector.${key} is not a known selector (tags, namePrefix, names)`);
        if (sel.tags !== undefined && (!Array.isArray(sel.tags) || !sel.tags.every((t: unknown) => typeof t === 'string'))) fail(['manage', i, 'selector', 'tags'], 'tags must be a list of strings');
        if (sel.names !== undefined && (!Array.isArray(sel.names) || !sel.names.every((t: unknown) => typeof t === 'string'))) fail(['manage', i, 'selector', 'names'], 'names must be a list of strings');
        if (sel.namePrefix !== undefined && typeof sel.namePrefix !== 'string') fail(['manage', i, 'selector', 'namePrefix'], 'namePrefix must be a string');
      }
    }
    manage.push({ kind: scope.kind, spaces: scope.spaces, selector: sel });
  });
  const ignore = readIgnoreRules(raw.ignore, knownKinds, fail);
  const areas = readAreaOverrides(raw.areas, fail);
  const references = readReferences(raw.references, fail);
  const fields: Array<{ path: string; pos: SourcePos }> = [];
  if (raw.fields !== undefined && !Array.isArray(raw.fields)) fail(['fields'], 'fields must be a list of files naming the project\'s fields (one name per line, or a YAML/JSON list)');
  (Array.isArray(raw.fields) ? raw.fields : []).forEach((p: unknown, i: number) => {
    if (typeof p !== 'string' || p === '') fail(['fields', i], `fields[${i}] must be a file path`);
    else fields.push({ path: p, pos: doc.posOf(['fields', i]) });
  });
  const checks = readChecks(raw.checks, knownKinds, fail);
  const auth = raw.auth ?? undefined;
  if (auth !== undefined) {
    if (typeof auth !== 'object') fail(['auth'], 'auth must be a mapping (apiKey, username, password, token)');
    else for (const key of Object.keys(auth)) if (!['apiKey', 'username', 'password', 'token'].includes(key)) fail(['auth', key], `auth.${key} is not a known field`);
  }
  const tls = raw.tls ?? undefined;
  if (tls !== undefined) {
    if (typeof tls !== 'object') fail(['tls'], 'tls must be a mapping (caCert, clientCert, clientKey)');
    else for (const key of Object.keys(tls)) if (!['caCert', 'clientCert', 'clientKey'].includes(key)) fail(['tls', key], `tls.${key} is not a known field`);
  }
  const emulator = readEmulatorSettings(raw.emulator, fail);
  const environments = readEnvironments(raw.environments, knownKinds, doc.posOf, fail);
  if (errors.length) throw new ConfigError(errors);
  const relToConfig = (p?: string) => (p ? resolve(dirname(file), p) : undefined);
  return {
    file,
    url: raw.url,
    space: raw.space,
    concurrency: raw.concurrency,
    auth,
    tls: tls ? { caCert: relToConfig(tls.caCert), clientCert: relToConfig(tls.clientCert), clientKey: relToConfig(tls.clientKey) } : undefined,
    manage,
    ignore,
    areas,
    fields,
    ...(checks ? { checks } : {}),
    ...(references ? { references } : {}),
    ...(environments.size ? { environments } : {}),
    ...(emulator ? { emulator: { ...(emulator.packages ? { packages: emulator.packages.map((p) => resolve(dirname(file), p)) } : {}), ...(emulator.registry ? { registry: emulator.registry } : {}) } } : {}),
  };
}

/**
 * The configuration as `--env NAME` sees it: the environment's URL, space and credentials in place
 * of the file's. An unknown name is a usage error listing the known ones.
 */
export function withEnvironment(config: SvcformConfig, name: string): SvcformConfig {
  const env = config.environments?.get(name);
  if (!env) {
    const known = [...(config.environments?.keys() ?? [])];
    throw new EnvironmentError(
      known.length
        ? `--env ${name}: no such environment in ${config.file ?? 'svcform.yaml'} (known: ${known.join(', ')})`
        : `--env ${name}: ${config.file ? `${config.file} declares no environments` : 'no svcform.yaml found'} (add environments: to svcform.yaml)`,
    );
  }
  return { ...config, url: env.url, space: env.space ?? config.space, auth: undefined, environment: env };
}

export class EnvironmentError extends Error {}

/** `references: {missing: error}` */
function readReferences(raw: unknown, fail: Fail): SvcformConfig['references'] {
  if (raw === undefined) return undefined;
  const shape = 'references must be a mapping with missing: warn or missing: error';
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    fail(['references'], shape);
    return undefined;
  }
  const { missing, ...rest } = raw as Record<string, unknown>;
  for (const key of Object.keys(rest)) fail(['references', key], `references.${key} is not a known setting (missing)`);
  if (missing !== 'warn' && missing !== 'error') {
    fail(['references', 'missing'], 'references.missing must be warn (a plan warns of a reference the server accepts to an object nobody holds) or error (such a plan fails)');
    return undefined;
  }
  return { missing };
}

/** `emulator: {packages: [dir, ...], registry: URL}`: the embedded emulator's package registry. */
function readEmulatorSettings(raw: unknown, fail: Fail): { packages?: string[]; registry?: string } | undefined {
  if (raw === undefined) return undefined;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    fail(['emulator'], 'emulator must be a mapping (packages, registry)');
    return undefined;
  }
  const value = raw as Record<string, unknown>;
  for (const key of Object.keys(value)) if (!['packages', 'registry'].includes(key)) fail(['emulator', key], `emulator.${key} is not a known setting (packages, registry)`);
  const packages = value.packages;
  if (packages !== undefined && (!Array.isArray(packages) || !packages.every((p) => typeof p === 'string' && p !== ''))) fail(['emulator', 'packages'], 'emulator.packages must be a list of folders of packages');
  if (value.registry !== undefined && (typeof value.registry !== 'string' || !/^https?:\/\//.test(value.registry))) fail(['emulator', 'registry'], 'emulator.registry must be an http:// or https:// URL of a package registry');
  return { packages: Array.isArray(packages) ? (packages as string[]) : undefined, registry: typeof value.registry === 'string' ? value.registry : undefined };
}

type Fail = (path: Array<string | number>, message: string) => void;

/** `checks: {queryFields: false, kinds: {Rule: {querySyntax: false}}}`: each switch a boolean. */
function readChecks(raw: unknown, knownKinds: string[], fail: Fail): RepositoryChecks | undefined {
  if (raw === undefined) return undefined;
  const known = `known: ${CHECK_SWITCHES.join(', ')}, kinds`;
  const switches = (value: unknown, path: Array<string | number>): Record<string, boolean> => {
    const out: Record<string, boolean> = {};
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      fail(path, `${path.join('.')} must be a mapping of check names to true or false (${known})`);
      return out;
    }
    for (const [name, on] of Object.entries(value)) {
      if (path.length === 1 && name === 'kinds') continue;
      if (!(CHECK_SWITCHES as readonly string[]).includes(name)) fail([...path, name], `${[...path, name].join('.')} is not a known check (${known})`);
      else if (typeof on !== 'boolean') fail([...path, name], `${[...path, name].join('.')} must be true or false`);
      else out[name] = on;
    }
    return out;
  };
  const all = switches(raw, ['checks']);
  const kinds: Record<string, Record<string, boolean>> = {};
  const perKind = (raw as Record<string, unknown> | null)?.kinds;
  if (perKind !== undefined) {
    if (!perKind || typeof perKind !== 'object' || Array.isArray(perKind)) fail(['checks', 'kinds'], 'checks.kinds must be a mapping of kinds to their check switches');
    else {
      for (const [kind, value] of Object.entries(perKind)) {
        if (!knownKinds.includes(kind)) fail(['checks', 'kinds', kind], `checks.kinds.${kind}: not a known kind (${knownKinds.join(', ')})`);
        else kinds[kind] = switches(value, ['checks', 'kinds', kind]);
      }
    }
  }
  return { all, kinds };
}

/** `ignore: [{kind: Rule, spaces: [default], pointers: [/spec/enabled]}]` */
function readIgnoreRules(raw: unknown, knownKinds: string[], fail: Fail): IgnoreRule[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    fail(['ignore'], 'ignore must be a list of rules ({kind, pointers, spaces})');
    return [];
  }
  const rules: IgnoreRule[] = [];
  raw.forEach((rule: any, i: number) => {
    if (!rule || typeof rule !== 'object' || Array.isArray(rule)) return fail(['ignore', i], 'an ignore rule must be a mapping with kind and pointers');
    for (const key of Object.keys(rule)) if (!['kind', 'spaces', 'pointers'].includes(key)) fail(['ignore', i, key], `ignore[${i}].${key} is not a known field (kind, spaces, pointers)`);
    if (!knownKinds.includes(rule.kind)) fail(['ignore', i, 'kind'], `ignore[${i}].kind must be one of ${knownKinds.join(', ')}`);
    if (rule.spaces !== undefined && (!Array.isArray(rule.spaces) || !rule.spaces.every((s: unknown) => typeof s === 'string'))) fail(['ignore', i, 'spaces'], `ignore[${i}].spaces must be a list of space ids`);
    if (!Array.isArray(rule.pointers) || rule.pointers.length === 0) return fail(['ignore', i, 'pointers'], `ignore[${i}].pointers must be a non-empty list of JSON Pointers such as /spec/enabled`);
    rule.pointers.forEach((p: unknown, j: number) => {
      if (typeof p !== 'string' || !p.startsWith('/spec/')) return fail(['ignore', i, 'pointers', j], `ignore[${i}].pointers[${j}] must be a JSON Pointer into the manifest's spec, such as /spec/enabled`);
      try {
        parsePointer(p);
      } catch (err) {
        fail(['ignore', i, 'pointers', j], (err as Error).message);
      }
    });
    rules.push({ kind: rule.kind, spaces: rule.spaces, pointers: rule.pointers });
  });
  return rules;
}

/** `areas: {fleet: {concurrency: 2, retryConflict: true}}` */
function readAreaOverrides(raw: unknown, fail: Fail): AreaOverrides {
  if (raw === undefined) return {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    fail(['areas'], `areas must be a mapping of area name to {concurrency, retryConflict} (areas: ${knownAreaNames().join(', ')})`);
    return {};
  }
  const out: AreaOverrides = {};
  for (const [name, policy] of Object.entries(raw as Record<string, any>)) {
    if (!knownAreaNames().includes(name)) {
      fail(['areas', name], `${name} is not a known area (${knownAreaNames().join(', ')})`);
      continue;
    }
    if (!policy || typeof policy !== 'object' || Array.isArray(policy)) {
      fail(['areas', name], `areas.${name} must be a mapping (concurrency, retryConflict)`);
      continue;
    }
    for (const key of Object.keys(policy)) if (!['concurrency', 'retryConflict'].includes(key)) fail(['areas', name, key], `areas.${name}.${key} is not a known setting (concurrency, retryConflict)`);
    if (policy.concurrency !== undefined && (!Number.isInteger(policy.concurrency) || policy.concurrency < 1)) fail(['areas', name, 'concurrency'], `areas.${name}.concurrency must be an integer >= 1`);
    if (policy.retryConflict !== undefined && typeof policy.retryConflict !== 'boolean') fail(['areas', name, 'retryConflict'], `areas.${name}.retryConflict must be true or false`);
    out[name] = { ...(policy.concurrency !== undefined ? { concurrency: policy.concurrency } : {}), ...(policy.retryConflict !== undefined ? { retryConflict: policy.retryConflict } : {}) };
  }
  return out;
}
