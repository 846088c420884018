import type { Resource } from '../manifest/types.js';
import type { AdapterContext, CheckIssue, KindAdapter, LiveObject, Reference } from './types.js';
import { deepEqual, isPlainObject } from './normalize.js';
import { AREAS } from '../client/areas.js';
import { uptimeDefaults, type UptimeSettings } from '../common/uptime-settings.js';

const KIND = 'UptimeSettings';
const PATH = '/api/uptime/settings';
/** The one name a space's settings have (the schema allows no other). */
export const UPTIME_SETTINGS_NAME = 'settings';

/**
 * Uptime settings, one object per space with no id and no delete (service-api.md Uptime settings;
 * wire-facts §12). The manifest states the whole object: a field it leaves out means the
 * documented default. Update is a PUT of every field (the server merges a PUT into what it holds,
 * so sending all of them leaves nothing from before). "Deleting" restores the defaults.
 *
 * Settings equal to the defaults are listed as no object at all. That makes a space nobody
 * configured look empty, so a manage scope does not reset it again on every run, and a reset done
 * on the server shows as a create. A manifest equal to the defaults would therefore never
 * converge; `check` refuses it (without a manifest the defaults hold anyway).
 */

/**
 * The default index pattern as the real server spells it (wire-facts §12: `heartbeat-*`); the
 * document writes it `<monitor-agent>-*`. Either reads as the default, so a manifest that leaves
 * the field out converges against both servers; a reset writes the document's spelling.
 */
const DEFAULT_INDEX_SPELLINGS = new Set(['<monitor-agent>-*', 'heartbeat-*']);

const sortedStrings = (v: unknown): string[] => (Array.isArray(v) ? [...new Set(v.filter((x): x is string => typeof x === 'string'))].sort() : []);

/** Settings in comparable form: defaults filled in, address and connector lists as sorted sets. */
function comparable(src: Record<string, any>): UptimeSettings {
  const filled = withDefaults(src);
  if (DEFAULT_INDEX_SPELLINGS.has(filled.heartbeatIndices)) filled.heartbeatIndices = uptimeDefaults().heartbeatIndices;
  return filled;
}

/** What a PUT sends: every field, the manifest's values as written, defaults for the rest. */
function withDefaults(src: Record<string, any>): UptimeSettings {
  const d = uptimeDefaults();
  const email = isPlainObject(src.defaultEmail) ? src.defaultEmail : {};
  return {
    heartbeatIndices: src.heartbeatIndices ?? d.heartbeatIndices,
    certExpirationThreshold: src.certExpirationThreshold ?? d.certExpirationThreshold,
    certAgeThreshold: src.certAgeThreshold ?? d.certAgeThreshold,
    defaultConnectors: sortedStrings(src.defaultConnectors),
    defaultEmail: { to: sortedStrings(email.to), cc: sortedStrings(email.cc), bcc: sortedStrings(email.bcc) },
  };
}

async function put(ctx: AdapterContext, space: string, body: UptimeSettings): Promise<void> {
  // camelCase keys: the real route's schema (the uptime plugin's dynamic settings route) takes
  // those, and so does the document-following emulator.
  await ctx.api.request({ method: 'PUT', path: PATH, space, body });
}

export const uptimeSettingsAdapter: KindAdapter = {
  kind: KIND,
  schema: 'UptimeSettings.schema.json',
  area: AREAS.uptime,
  referenceKinds: ['Connector'],
  setFields: ['/defaultConnectors', '/defaultEmail/to', '/defaultEmail/cc', '/defaultEmail/bcc'],

  /** Accepted when missing: the settings route's schema takes any list of strings and stores it (the uptime plugin's dynamic settings route). */
  references(spec): Reference[] {
    const ids: unknown[] = Array.isArray(spec.defaultConnectors) ? spec.defaultConnectors : [];
    return ids.flatMap((id, i): Reference[] =>
      typeof id === 'string' ? [{ kind: 'Connector', name: id, path: ['spec', 'defaultConnectors', i], whenMissing: 'accepted', missingEffect: 'monitor alerts are not sent through it until it exists' }] : [],
    );
  },

  check(res: Resource): CheckIssue[] {
    if (!deepEqual(comparable(res.spec), uptimeDefaults())) return [];
    return [{
      path: ['spec'],
      message: 'every setting equals its default, which is what a space has without this manifest: remove the manifest (a manage scope for UptimeSettings resets settings changed on the server), or set a field to a value of your own',
    }];
  },

  async list(ctx: AdapterContext, space: string): Promise<LiveObject[]> {
    const res = await ctx.api.request({ method: 'GET', path: PATH, space });
    const body = res.body ?? {};
    if (deepEqual(comparable(body), uptimeDefaults())) return [];
    return [{ kind: KIND, space, name: UPTIME_SETTINGS_NAME, body }];
  },

  normalizeDesired(res: Resource) {
    return { ...comparable(res.spec) };
  },

  normalizeLive(live: LiveObject) {
    return { ...comparable(live.body) };
  },

  async create(ctx: AdapterContext, res: Resource) {
    await put(ctx, res.space, withDefaults(res.spec));
  },

  async update(ctx: AdapterContext, res: Resource) {
    await put(ctx, res.space, withDefaults(res.spec));
  },

  async delete(ctx: AdapterContext, live: LiveObject) {
    await put(ctx, live.space, uptimeDefaults());
  },

  toSpec(live: LiveObject) {
    const have = comparable(live.body);
    const d = uptimeDefaults();
    const spec: Record<string, any> = {};
    if (have.heartbeatIndices !== d.heartbeatIndices) spec.heartbeatIndices = have.heartbeatIndices;
    if (have.certExpirationThreshold !== d.certExpirationThreshold) spec.certExpirationThreshold = have.certExpirationThreshold;
    if (have.certAgeThreshold !== d.certAgeThreshold) spec.certAgeThreshold = have.certAgeThreshold;
    if (have.defaultConnectors.length) spec.defaultConnectors = have.defaultConnectors;
    const email = Object.fromEntries(Object.entries(have.defaultEmail).filter(([, v]) => v.length > 0));
    if (Object.keys(email).length) spec.defaultEmail = email;
    return { spec };
  },
};
