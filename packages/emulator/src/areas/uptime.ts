import type { EmulatorArea } from '../area.js';
import { schema, validateRequest, type Schema } from '../config-schema.js';
import { uptimeDefaults, type UptimeSettings } from '../facts/uptime-settings.js';

/**
 * The PUT body as the server declares it (the uptime plugin's dynamic-settings route,
 * DynamicSettingsSchema: every key `schema.maybe`, thresholds integers of at least 1, a non-empty
 * index pattern, `defaultEmail.to` required), checked with the config-schema model, so unknown keys
 * are refused. The snake_case spellings service-api.md lists are taken as well, with the same
 * rules; they are declared after the camelCase ones, so a body carrying both reports the camelCase
 * key's problem first, as one schema would.
 */
const threshold = () => schema.maybe(schema.number({ min: 1, check: (v) => (v % 1 ? 'Value must be an integer.' : undefined) }));
const FIELDS: Record<keyof UptimeSettings, Schema> = {
  heartbeatIndices: schema.maybe(schema.string({ minLength: 1 })),
  certAgeThreshold: threshold(),
  certExpirationThreshold: threshold(),
  defaultConnectors: schema.maybe(schema.arrayOf(schema.string())),
  defaultEmail: schema.maybe(schema.object({
    to: schema.arrayOf(schema.string()),
    cc: schema.maybe(schema.arrayOf(schema.string())),
    bcc: schema.maybe(schema.arrayOf(schema.string())),
  })),
};
const SNAKE_CASE: Record<string, keyof UptimeSettings> = {
  heartbeat_indices: 'heartbeatIndices',
  cert_age_threshold: 'certAgeThreshold',
  cert_expiration_threshold: 'certExpirationThreshold',
  default_connectors: 'defaultConnectors',
  default_email: 'defaultEmail',
};
const PutSettingsBody = schema.object({
  ...FIELDS,
  ...Object.fromEntries(Object.entries(SNAKE_CASE).map(([alias, key]) => [alias, FIELDS[key]])),
});

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
      const state = ctx.store.area<UptimeState>(req.space, 'uptime', () => ({ settings: uptimeDefaults() }));
      return { body: structuredClone(state.settings) };
    }, { access: 'read' });

    router.put('/api/uptime/settings', (req, ctx) => {
      const patch = readPatch(req.body);
      const state = ctx.store.area<UptimeState>(req.space, 'uptime', () => ({ settings: uptimeDefaults() }));
      state.settings = { ...state.settings, ...patch };
      return { body: structuredClone(state.settings) };
    }, { access: 'all' });
  },
};

/** The validated body as a patch of the stored settings; a snake_case key wins over its camelCase twin. */
function readPatch(body: unknown): Partial<UptimeSettings> {
  const valid = validateRequest(PutSettingsBody, body ?? null);
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(FIELDS)) if (valid[key] !== undefined) patch[key] = valid[key];
  for (const [alias, key] of Object.entries(SNAKE_CASE)) if (valid[alias] !== undefined) patch[key] = valid[alias];
  if (patch.defaultEmail) {
    const email = patch.defaultEmail as Partial<UptimeSettings['defaultEmail']>;
    patch.defaultEmail = { to: email.to ?? [], cc: email.cc ?? [], bcc: email.bcc ?? [] };
  }
  return patch as Partial<UptimeSettings>;
}
