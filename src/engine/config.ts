import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseManifestText } from '../manifest/load.js';
import { interpolate } from '../manifest/interpolate.js';
import { redactor } from '../manifest/redact.js';
import type { Diagnostic } from '../manifest/types.js';

/** One `manage` entry: svcform owns (and so may delete) live objects that match it. */
export interface ManageScope {
  kind: string;
  /** Spaces the scope covers; absent means every space the run touches. */
  spaces?: string[];
  selector?: {
    /** Objects must carry every one of these tags (kinds with tags only). */
    tags?: string[];
    /** metadata.name (the object's identity) must start with this. */
    namePrefix?: string;
    /** metadata.name must be one of these (what `export --manage-out` writes). */
    names?: string[];
  };
}

export interface SvcformConfig {
  /** Where the file was read from, if any. */
  file?: string;
  url?: string;
  space?: string;
  concurrency?: number;
  auth?: { apiKey?: string; username?: string; password?: string; token?: string };
  tls?: { caCert?: string; clientCert?: string; clientKey?: string };
  manage: ManageScope[];
}

const TOP_KEYS = new Set(['url', 'space', 'concurrency', 'auth', 'tls', 'manage']);

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

export function loadConfig(file: string | undefined, knownKinds: string[], env: NodeJS.ProcessEnv = process.env): SvcformConfig {
  if (!file) return { manage: [] };
  if (!existsSync(file)) throw new ConfigError([{ severity: 'error', pos: { file, line: 1, col: 1 }, message: 'configuration file not found' }]);
  const parsed = parseManifestText(readFileSync(file, 'utf8'), file);
  if (parsed.diagnostics.length) throw new ConfigError(parsed.diagnostics);
  const doc = parsed.docs[0];
  if (!doc) return { file, manage: [] };
  const errors: Diagnostic[] = [];
  const fail = (path: Array<string | number>, message: string) => errors.push({ severity: 'error', pos: doc.posOf(path), message });
  const { value, diagnostics } = interpolate(doc.value, { env, dir: doc.dir, redactor, posOf: doc.posOf });
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
  };
}
