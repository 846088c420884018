import type { EmulatorArea } from '../area.js';
import { badRequest } from '../errors.js';

export interface UptimeSettings {
  heartbeatIndices: string;
  certExpirationThreshold: number;
  certAgeThreshold: number;
  defaultConnectors: string[];
  defaultEmail: { to: string[]; cc: string[]; bcc: string[] };
}

/**
 * Defaults from service-api.md Uptime settings. The index pattern is the document's
 * `<monitor-agent>-*`, which wins over the value wire-facts §12 gives.
 */
export function defaultUptimeSettings(): UptimeSettings {
  return {
    heartbeatIndices: '<monitor-agent>-*',
    certExpirationThreshold: 30,
    certAgeThreshold: 730,
    defaultConnectors: [],
    defaultEmail: { to: [], cc: [], bcc: [] },
  };
}

/** Update keys as service-api.md lists them (snake_case) and as the server answers them (camelCase). */
const KEY_ALIASES: Record<string, keyof UptimeSettings> = {
  heartbeat_indices: 'heartbeatIndices',
  cert_expiration_threshold: 'certExpirationThreshold',
  cert_age_threshold: 'certAgeThreshold',
  default_connectors: 'defaultConnectors',
  default_email: 'defaultEmail',
  heartbeatIndices: 'heartbeatIndices',
  certExpirationThreshold: 'certExpirationThreshold',
  certAgeThreshold: 'certAgeThreshold',
  defaultConnectors: 'defaultConnectors',
  defaultEmail: 'defaultEmail',
};

const EMAIL_KEYS = ['to', 'cc', 'bcc'] as const;

interface UptimeState {
  settings: UptimeSettings;
}

/**
 * Uptime settings, a singleton per space (service-api.md Uptime settings; wire-facts §12). GET needs
 * the read privilege, PUT needs all (service-api.md Authentication 6). PUT merges the provided keys
 * into the stored settings and answers the full object; there is no delete and no version token.
 */
export const uptimeArea: EmulatorArea = {
  name: 'uptime',
  register(router) {
    router.get('/api/uptime/settings', (req, ctx) => {
      const state = ctx.store.area<UptimeState>(req.space, 'uptime', () => ({ settings: defaultUptimeSettings() }));
      return { body: structuredClone(state.settings) };
    }, { access: 'read' });

    router.put('/api/uptime/settings', (req, ctx) => {
      const patch = readPatch(req.body);
      const state = ctx.store.area<UptimeState>(req.space, 'uptime', () => ({ settings: defaultUptimeSettings() }));
      state.settings = { ...state.settings, ...patch };
      return { body: structuredClone(state.settings) };
    }, { access: 'all' });
  },
};

function fail(key: string, problem: string): Error {
  return badRequest(`[request body.${key}]: ${problem}`);
}

function readPatch(body: unknown): Partial<UptimeSettings> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest(`[request body]: expected a plain object value, but found [${body === undefined ? 'undefined' : Array.isArray(body) ? 'Array' : String(body)}] instead.`);
  }
  const patch: Partial<UptimeSettings> = {};
  // The camelCase spelling of a key is applied first, so the documented snake_case one wins when a
  // body carries both.
  const entries = Object.entries(body as Record<string, unknown>).sort(([a], [b]) => Number(a.includes('_')) - Number(b.includes('_')));
  for (const [key, value] of entries) {
    const target = KEY_ALIASES[key];
    if (!target) throw fail(key, 'definition for this key is missing');
    switch (target) {
      case 'heartbeatIndices':
        if (typeof value !== 'string' || value.length === 0) throw fail(key, `expected value of type [string] but got [${typeName(value)}]`);
        patch.heartbeatIndices = value;
        break;
      case 'certExpirationThreshold':
      case 'certAgeThreshold':
        if (typeof value !== 'number' || !Number.isFinite(value)) throw fail(key, `expected value of type [number] but got [${typeName(value)}]`);
        patch[target] = value;
        break;
      case 'defaultConnectors':
        patch.defaultConnectors = stringList(key, value);
        break;
      case 'defaultEmail':
        patch.defaultEmail = readEmail(key, value);
        break;
    }
  }
  return patch;
}

function readEmail(key: string, value: unknown): UptimeSettings['defaultEmail'] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw fail(key, `expected a plain object value, but found [${typeName(value)}] instead.`);
  }
  const email = { to: [] as string[], cc: [] as string[], bcc: [] as string[] };
  for (const [part, list] of Object.entries(value as Record<string, unknown>)) {
    if (!(EMAIL_KEYS as readonly string[]).includes(part)) throw fail(`${key}.${part}`, 'definition for this key is missing');
    email[part as (typeof EMAIL_KEYS)[number]] = stringList(`${key}.${part}`, list);
  }
  return email;
}

function stringList(key: string, value: unknown): string[] {
  if (!Array.isArray(value)) throw fail(key, `expected value of type [array] but got [${typeName(value)}]`);
  value.forEach((x, i) => {
    if (typeof x !== 'string') throw fail(`${key}.${i}`, `expected value of type [string] but got [${typeName(x)}]`);
  });
  return [...(value as string[])];
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'Array';
  return typeof v;
}
