import type { Operation } from 'fast-json-patch';
import { parsePointer } from '../common/pointer.js';
import type { Overlay, OverlaySelector } from '../manifest/overlay.js';
import type { DocPath, SourcePos } from '../manifest/types.js';

/**
 * svcform.yaml `environments:`: the targets one repository drives (dev, staging, prod), each with
 * its URL, the names of the variables holding its credentials (never the secrets themselves: the
 * file is committed), its default space and its overlays (manifest/overlay.ts). `--env NAME`
 * chooses one for validate, plan, apply and drift; `promote` reads two.
 */
export interface EnvironmentConfig {
  name: string;
  url: string;
  /** Space for manifests without metadata.space in this environment. */
  space?: string;
  /** Names of environment variables, per credential. */
  credentials: { apiKey?: string; username?: string; password?: string; token?: string };
  overlays: Overlay[];
}

type Fail = (path: Array<string | number>, message: string) => void;

const ENV_KEYS = ['url', 'space', 'credentials', 'overlays'];
const CREDENTIALS = ['apiKey', 'username', 'password', 'token'] as const;
const OVERLAY_KEYS = ['select', 'values', 'patch'];
const SELECT_KEYS = ['kind', 'name', 'labels', 'tags'];
const PATCH_OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'];
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const isMapping = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** Where an overlay may write: the spec and metadata, never a document's identity (kind, name). */
function writablePath(path: string[]): string | undefined {
  if (path[0] === 'spec') return undefined;
  if (path[0] === 'metadata' && path.length > 1 && path[1] !== 'name') return undefined;
  return 'an overlay may change only /spec/... and /metadata/... (not metadata.name, kind or apiVersion: they name the object)';
}

export function readEnvironments(raw: unknown, knownKinds: string[], posOf: (path: DocPath) => SourcePos, fail: Fail): Map<string, EnvironmentConfig> {
  const out = new Map<string, EnvironmentConfig>();
  if (raw === undefined) return out;
  if (!isMapping(raw)) {
    fail(['environments'], 'environments must be a mapping of environment names to {url, credentials, space, overlays}');
    return out;
  }
  for (const [name, env] of Object.entries(raw)) {
    const at = ['environments', name];
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name)) fail(at, `environment name ${JSON.stringify(name)} must be letters, digits, ., _ or - (it is typed after --env)`);
    if (!isMapping(env)) {
      fail(at, `environments.${name} must be a mapping (${ENV_KEYS.join(', ')})`);
      continue;
    }
    for (const key of Object.keys(env)) if (!ENV_KEYS.includes(key)) fail([...at, key], `environments.${name}.${key} is not a known setting (${ENV_KEYS.join(', ')})`);
    if (typeof env.url !== 'string' || env.url.trim() === '') fail([...at, 'url'], `environments.${name}.url is required: the server URL (or embedded)`);
    if (env.space !== undefined && (typeof env.space !== 'string' || env.space === '')) fail([...at, 'space'], `environments.${name}.space must be a space id`);
    const credentials: EnvironmentConfig['credentials'] = {};
    if (env.credentials !== undefined) {
      if (!isMapping(env.credentials)) fail([...at, 'credentials'], `environments.${name}.credentials must be a mapping of ${CREDENTIALS.join(', ')} to names of environment variables`);
      else {
        for (const [key, variable] of Object.entries(env.credentials)) {
          const here = [...at, 'credentials', key];
          if (!(CREDENTIALS as readonly string[]).includes(key)) fail(here, `environments.${name}.credentials.${key} is not a known credential (${CREDENTIALS.join(', ')})`);
          // The value itself is never echoed: a secret pasted here must not reach a CI log.
          else if (typeof variable !== 'string' || !VARIABLE.test(variable)) fail(here, `environments.${name}.credentials.${key} must name an environment variable (such as PROD_API_KEY) that holds the secret, not the secret itself`);
          else credentials[key as (typeof CREDENTIALS)[number]] = variable;
        }
      }
    }
    const overlays: Overlay[] = [];
    if (env.overlays !== undefined && !Array.isArray(env.overlays)) fail([...at, 'overlays'], `environments.${name}.overlays must be a list of {select, values} or {select, patch}`);
    (Array.isArray(env.overlays) ? env.overlays : []).forEach((o: unknown, i: number) => {
      const overlay = readOverlay(o, [...at, 'overlays', i], `environments.${name}.overlays[${i}]`, knownKinds, posOf, fail);
      if (overlay) overlays.push({ ...overlay, index: i });
    });
    out.set(name, { name, url: typeof env.url === 'string' ? env.url : '', space: env.space, credentials, overlays });
  }
  return out;
}

function readOverlay(raw: unknown, at: DocPath, label: string, knownKinds: string[], posOf: (path: DocPath) => SourcePos, fail: Fail): Omit<Overlay, 'index'> | undefined {
  if (!isMapping(raw)) {
    fail(at, `${label} must be a mapping with select and values or patch`);
    return undefined;
  }
  let ok = true;
  const bad: Fail = (path, message) => {
    ok = false;
    fail(path, message);
  };
  for (const key of Object.keys(raw)) if (!OVERLAY_KEYS.includes(key)) bad([...at, key], `${label}.${key} is not a known field (${OVERLAY_KEYS.join(', ')})`);
  const select: OverlaySelector = {};
  const sel = raw.select;
  if (!isMapping(sel)) bad([...at, 'select'], `${label}.select is required: a mapping of ${SELECT_KEYS.join(', ')} (every part given must match)`);
  else {
    for (const key of Object.keys(sel)) if (!SELECT_KEYS.includes(key)) bad([...at, 'select', key], `${label}.select.${key} is not a known selector (${SELECT_KEYS.join(', ')})`);
    if (sel.kind !== undefined) {
      const kinds = typeof sel.kind === 'string' ? [sel.kind] : sel.kind;
      if (!isStringList(kinds)) bad([...at, 'select', 'kind'], `${label}.select.kind must be a kind or a list of kinds`);
      else {
        kinds.forEach((k) => knownKinds.includes(k) || bad([...at, 'select', 'kind'], `${label}.select.kind: ${JSON.stringify(k)} is not a known kind (${knownKinds.join(', ')})`));
        select.kinds = kinds;
      }
    }
    if (sel.name !== undefined) {
      if (typeof sel.name !== 'string' || sel.name === '') bad([...at, 'select', 'name'], `${label}.select.name must be a name, * matching any characters`);
      else select.name = sel.name;
    }
    if (sel.labels !== undefined) {
      if (!isMapping(sel.labels) || !Object.values(sel.labels).every((v) => typeof v === 'string')) bad([...at, 'select', 'labels'], `${label}.select.labels must be a mapping of label names to values`);
      else select.labels = sel.labels;
    }
    if (sel.tags !== undefined) {
      if (!isStringList(sel.tags)) bad([...at, 'select', 'tags'], `${label}.select.tags must be a list of tags`);
      else select.tags = sel.tags;
    }
  }
  if (raw.values === undefined && raw.patch === undefined) bad(at, `${label} needs values (merged into each manifest it selects) or patch (JSON Patch operations)`);
  if (raw.values !== undefined) {
    if (!isMapping(raw.values)) bad([...at, 'values'], `${label}.values must be a mapping merged into the manifest (such as {spec: {enabled: false}})`);
    else {
      for (const key of Object.keys(raw.values)) {
        const inside = key === 'metadata' && isMapping(raw.values.metadata) ? Object.keys(raw.values.metadata) : [''];
        for (const sub of inside) {
          const why = writablePath([key, sub]);
          if (why) bad([...at, 'values', key, ...(sub ? [sub] : [])], `${label}.values.${key}${sub ? `.${sub}` : ''}: ${why}`);
        }
      }
    }
  }
  if (raw.patch !== undefined) {
    if (!Array.isArray(raw.patch)) bad([...at, 'patch'], `${label}.patch must be a list of JSON Patch operations ({op, path, value})`);
    else
      raw.patch.forEach((op: any, j: number) => {
        const here = [...at, 'patch', j];
        if (!isMapping(op) || !PATCH_OPS.includes(op.op)) return bad([...at, 'patch', j, 'op'], `${label}.patch[${j}].op must be one of ${PATCH_OPS.join(', ')}`);
        for (const key of Object.keys(op)) if (!['op', 'path', 'value', 'from'].includes(key)) bad([...here, key], `${label}.patch[${j}].${key} is not a field of a JSON Patch operation (op, path, value, from)`);
        for (const field of ['path', ...(op.op === 'move' || op.op === 'copy' ? ['from'] : [])]) {
          let path: string[] = [];
          try {
            if (typeof op[field] !== 'string') throw new Error('must be a JSON Pointer such as /spec/enabled');
            path = parsePointer(op[field]);
          } catch (err) {
            bad([...here, field], `${label}.patch[${j}].${field} ${(err as Error).message}`);
            continue;
          }
          const why = field === 'path' || op.op === 'move' ? writablePath(path) : undefined;
          if (why) bad([...here, field], `${label}.patch[${j}].${field}: ${why}`);
        }
        if (['add', 'replace', 'test'].includes(op.op) && !('value' in op)) bad(here, `${label}.patch[${j}] (${op.op}) needs a value`);
      });
  }
  if (!ok) return undefined;
  return {
    select,
    ...(raw.values !== undefined ? { values: raw.values } : {}),
    ...(raw.patch !== undefined ? { patch: raw.patch as Operation[] } : {}),
    posOf: (path) => posOf([...at, ...path]),
  };
}
