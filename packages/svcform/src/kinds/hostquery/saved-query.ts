import type { CheckIssue, DocPath, Resource } from '../../manifest/types.js';
import { clone, isPlainObject, sortKeys } from '../normalize.js';
import { listHostQueryObjects } from './listing.js';
import type { KindAdapter, LiveObject } from '../types.js';
import { AREAS } from '../../client/areas.js';

const KIND = 'HostQuerySavedQuery';
const BASE = '/api/hostquery/saved_queries';

/**
 * What the server assumes when a query says nothing: the result type (wire-facts §8: server-defaulted)
 * and the timeout, which clients fill with the host-query default of 60 seconds when it is absent
 * (osquery QUERY_TIMEOUT.DEFAULT). Absent and 60 are therefore the same, and a manifest that drops
 * its timeout is written as 60: the real update keeps an omitted field and the timeout codec
 * (60 to 900) takes no empty value, so this is the only way to clear one there.
 */
const SAVED_QUERY_DEFAULTS = { snapshot: true, removed: false, timeout: 60 };

/** The platforms the server's query editor offers, as agents report them. */
const AGENT_PLATFORMS = ['linux', 'darwin', 'windows'];
const PLATFORM_ALIASES: Record<string, string> = { macos: 'darwin', mac: 'darwin', osx: 'darwin', win: 'windows' };

/**
 * The route takes `platform` as any text (Security_Osquery_API_Platform: a string) and stores it
 * as written, so a name outside the three the agents report is not refused, only pointed out:
 * `macos` or `Linux` most likely meant darwin or linux, and may leave the query running nowhere.
 */
export function platformWarnings(platform: unknown, path: DocPath): CheckIssue[] {
  if (typeof platform !== 'string') return [];
  const odd = [...new Set(platform.split(',').map((p) => p.trim()).filter((p) => p !== '' && !AGENT_PLATFORMS.includes(p)))];
  if (odd.length === 0) return [];
  const meant = (p: string) => PLATFORM_ALIASES[p.toLowerCase()] ?? (AGENT_PLATFORMS.includes(p.toLowerCase()) ? p.toLowerCase() : undefined);
  const named = odd.map((p) => (meant(p) ? `${JSON.stringify(p)} (did you mean ${meant(p)}?)` : JSON.stringify(p))).join(', ');
  return [{ path, severity: 'warning', message: `platform ${named} is none of ${AGENT_PLATFORMS.join(', ')}, the platforms agents report; the server stores it as written, and the query may run on no host` }];
}

/**
 * An ecs_mapping entry copies a result column (`field`) or writes a static value (`value`). The
 * routes take a partial of the two (osquery's ecsMapping type): an entry with neither, with both,
 * or with other keys is stored as written, and what the agents make of it is not checked offline.
 * So each is a warning, not a refusal.
 */
export function ecsMappingWarnings(mapping: unknown, path: DocPath): CheckIssue[] {
  if (!isPlainObject(mapping)) return [];
  const issues: CheckIssue[] = [];
  const warn = (at: DocPath, message: string) => issues.push({ path: at, severity: 'warning', message: `${message}; the server stores it as written` });
  for (const [ecsField, entry] of Object.entries(mapping)) {
    const at = [...path, ecsField];
    if (ecsField === '') warn(at, 'ecs_mapping names an empty ECS field');
    if (!isPlainObject(entry)) continue;
    const others = Object.keys(entry).filter((k) => k !== 'field' && k !== 'value');
    if (others.length > 0) warn(at, `ecs_mapping ${JSON.stringify(ecsField)}: ${others.map((k) => JSON.stringify(k)).join(', ')} ${others.length === 1 ? 'is' : 'are'} neither field (a result column) nor value (a static value)`);
    if (entry.field !== undefined && entry.value !== undefined) warn(at, `ecs_mapping ${JSON.stringify(ecsField)} gives both field and value: give one`);
    else if (entry.field === undefined && entry.value === undefined) warn(at, `ecs_mapping ${JSON.stringify(ecsField)} maps nothing: give field (a result column) or value (a static value)`);
  }
  return issues;
}

/** `platform` is a comma-joined set: `darwin,linux` and `linux, darwin` are the same value. */
export function canonicalPlatform(platform: unknown): string | undefined {
  if (typeof platform !== 'string') return undefined;
  const parts = [...new Set(platform.split(',').map((p) => p.trim()).filter(Boolean))].sort();
  return parts.length > 0 ? parts.join(',') : undefined;
}

/**
 * An ecs_mapping with sorted keys, or undefined when empty (empty and absent mean the same). Takes
 * the map replies carry and the `[{key, value}]` array a pack's stored queries carry in a find reply.
 */
export function canonicalEcsMapping(mapping: unknown): Record<string, any> | undefined {
  const asMap = Array.isArray(mapping) ? Object.fromEntries(mapping.filter(isPlainObject).map((e) => [e.key, e.value])) : mapping;
  if (!isPlainObject(asMap) || Object.keys(asMap).length === 0) return undefined;
  return sortKeys(clone(asMap));
}

export function trimmedOrUndefined(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t.length > 0 ? t : undefined;
}

/**
 * A saved query in comparable form, from a manifest spec or a server reply alike: interval as an
 * integer, platform as a sorted set, description trimmed, empty values dropped, result-type
 * defaults filled. Server-managed fields (ids, audit, prebuilt) are not carried over.
 */
function canonical(source: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = { query: source.query, interval: Number(source.interval) };
  const description = trimmedOrUndefined(source.description);
  const platform = canonicalPlatform(source.platform);
  const version = trimmedOrUndefined(source.version);
  const ecsMapping = canonicalEcsMapping(source.ecs_mapping);
  if (description !== undefined) out.description = description;
  if (platform !== undefined) out.platform = platform;
  if (version !== undefined) out.version = version;
  out.timeout = typeof source.timeout === 'number' ? source.timeout : SAVED_QUERY_DEFAULTS.timeout;
  out.snapshot = typeof source.snapshot === 'boolean' ? source.snapshot : SAVED_QUERY_DEFAULTS.snapshot;
  out.removed = typeof source.removed === 'boolean' ? source.removed : SAVED_QUERY_DEFAULTS.removed;
  if (ecsMapping !== undefined) out.ecs_mapping = ecsMapping;
  return out;
}

/**
 * The write body for a spec. The API takes interval as a string of digits. Optional fields the
 * manifest omits are sent empty ("" / {}) and the result-type flags and timeout with their
 * defaults, so an update clears them whether the server replaces (service-api.md) or keeps what a
 * body leaves out (the real route, wire-facts §15 fact 5).
 */
function writeBody(spec: Record<string, any>): Record<string, any> {
  const body: Record<string, any> = {
    query: spec.query,
    interval: String(spec.interval),
    description: spec.description ?? '',
    platform: spec.platform ?? '',
    version: spec.version ?? '',
    ecs_mapping: spec.ecs_mapping ?? {},
    snapshot: spec.snapshot ?? SAVED_QUERY_DEFAULTS.snapshot,
    removed: spec.removed ?? SAVED_QUERY_DEFAULTS.removed,
    timeout: spec.timeout ?? SAVED_QUERY_DEFAULTS.timeout,
  };
  return body;
}

/** Saved host queries. metadata.name is the query `id`; paths use the server's `saved_object_id`. */
export const hostQuerySavedQueryAdapter: KindAdapter = {
  kind: KIND,
  schema: 'HostQuerySavedQuery.schema.json',
  area: AREAS.hostquery,

  references() {
    return [];
  },

  check(res: Resource): CheckIssue[] {
    return [...platformWarnings(res.spec.platform, ['spec', 'platform']), ...ecsMappingWarnings(res.spec.ecs_mapping, ['spec', 'ecs_mapping'])];
  },

  async list(ctx, space) {
    return listHostQueryObjects(ctx, space, { kind: KIND, path: BASE, name: (body) => body.id, readOnly: (body) => (body.prebuilt ? 'prebuilt saved query' : undefined) });
  },

  normalizeDesired(res: Resource) {
    return canonical(res.spec);
  },

  normalizeLive(live: LiveObject) {
    return canonical(live.body);
  },

  async create(ctx, res) {
    await ctx.api.request({
      method: 'POST',
      path: BASE,
      space: res.space,
      idempotent: true,
      body: { id: res.name, ...writeBody(res.spec) },
    });
  },

  // service-api.md: "update always needs new_id (the name) and replaces"; the real route reads the
  // name from `id` and ignores `new_id` (wire-facts §15 fact 5). Both go along, so either works.
  async update(ctx, res, live) {
    await ctx.api.request({
      method: 'PUT',
      path: `${BASE}/${encodeURIComponent(live.serverId ?? '')}`,
      space: live.space,
      body: { new_id: res.name, id: res.name, ...writeBody(res.spec) },
    });
  },

  async delete(ctx, live) {
    await ctx.api.request({
      method: 'DELETE',
      path: `${BASE}/${encodeURIComponent(live.serverId ?? '')}`,
      space: live.space,
    });
  },

  toSpec(live) {
    const n = canonical(live.body);
    const spec: Record<string, any> = { query: n.query, interval: n.interval };
    if (n.description !== undefined) spec.description = n.description;
    if (n.platform !== undefined) spec.platform = n.platform;
    if (n.version !== undefined) spec.version = n.version;
    if (n.timeout !== SAVED_QUERY_DEFAULTS.timeout) spec.timeout = n.timeout;
    if (n.snapshot !== SAVED_QUERY_DEFAULTS.snapshot) spec.snapshot = n.snapshot;
    if (n.removed !== SAVED_QUERY_DEFAULTS.removed) spec.removed = n.removed;
    if (n.ecs_mapping !== undefined) spec.ecs_mapping = n.ecs_mapping;
    return { spec };
  },
};
