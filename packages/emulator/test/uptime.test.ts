import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator, KEYS } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const SETTINGS = '/api/uptime/settings';
const DEFAULTS = {
  heartbeatIndices: '<monitor-agent>-*',
  certExpirationThreshold: 30,
  certAgeThreshold: 730,
  defaultConnectors: [],
  defaultEmail: { to: [], cc: [], bcc: [] },
};

describe('emulator uptime settings', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ spaces: ['other'] });
  });
  after(() => emu.stop());
  beforeEach(async () => {
    await call(emu, 'POST', '/__emulator/reset');
  });

  it('get answers the defaults (service-api.md Uptime settings: heartbeatIndices `<monitor-agent>-*`, certExpirationThreshold 30, certAgeThreshold 730; Limits: "Uptime thresholds | defaults | 30 and 730 days")', async () => {
    const res = await call(emu, 'GET', SETTINGS);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, DEFAULTS);
  });

  it('update takes the snake_case keys and answers the full settings object (service-api.md Uptime settings: "heartbeat_indices, cert_expiration_threshold, cert_age_threshold, default_connectors, default_email ... the full settings object is returned")', async () => {
    const res = await call(emu, 'PUT', SETTINGS, {
      heartbeat_indices: 'monitors-*',
      cert_expiration_threshold: 14,
      cert_age_threshold: 365,
      default_connectors: ['soc-chat'],
      default_email: { to: ['soc@example.com'], cc: ['lead@example.com'], bcc: [] },
    });
    assert.equal(res.status, 200);
    const expected = {
      heartbeatIndices: 'monitors-*',
      certExpirationThreshold: 14,
      certAgeThreshold: 365,
      defaultConnectors: ['soc-chat'],
      defaultEmail: { to: ['soc@example.com'], cc: ['lead@example.com'], bcc: [] },
    };
    assert.deepEqual(res.body, expected);
    assert.deepEqual((await call(emu, 'GET', SETTINGS)).body, expected);
  });

  it('update merges provided keys with the existing settings (service-api.md Uptime settings: "all optional; provided keys are merged with existing settings")', async () => {
    await call(emu, 'PUT', SETTINGS, { cert_age_threshold: 100 });
    const res = await call(emu, 'PUT', SETTINGS, { default_connectors: ['a', 'b'] });
    assert.deepEqual(res.body, { ...DEFAULTS, certAgeThreshold: 100, defaultConnectors: ['a', 'b'] });
    const empty = await call(emu, 'PUT', SETTINGS, {});
    assert.deepEqual(empty.body, res.body);
  });

  it('update also takes the camelCase keys the reply uses (wire-facts §12: "PUT takes any subset of those keys")', async () => {
    const res = await call(emu, 'PUT', SETTINGS, { heartbeatIndices: 'beats-*', certExpirationThreshold: 7 });
    assert.equal(res.status, 200);
    assert.equal(res.body.heartbeatIndices, 'beats-*');
    assert.equal(res.body.certExpirationThreshold, 7);
  });

  it('fills the missing parts of default_email with empty lists (service-api.md Uptime settings: "defaultEmail object {to, cc, bcc} each a list of addresses")', async () => {
    const res = await call(emu, 'PUT', SETTINGS, { default_email: { to: ['a@example.com'] } });
    assert.deepEqual(res.body.defaultEmail, { to: ['a@example.com'], cc: [], bcc: [] });
  });

  it('answers 400 for wrong types and unknown keys and keeps the settings (service-api.md Errors: "Invalid body or query parameter | 400")', async () => {
    const bad = [
      { heartbeat_indices: 5 },
      { cert_expiration_threshold: 'thirty' },
      { cert_age_threshold: null },
      { default_connectors: 'soc-chat' },
      { default_connectors: [1] },
      { default_email: ['a@example.com'] },
      { default_email: { to: 'a@example.com' } },
      { default_email: { from: [] } },
      { cert_age_treshold: 5 },
    ];
    for (const body of bad) {
      const res = await call(emu, 'PUT', SETTINGS, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'Bad Request');
    }
    assert.equal((await call(emu, 'PUT', SETTINGS, undefined, { raw: '[1]', contentType: 'application/json' })).status, 400);
    assert.deepEqual((await call(emu, 'GET', SETTINGS)).body, DEFAULTS);
  });

  it('takes the real schema\'s rules: integer thresholds of at least 1, a non-empty index pattern, defaultEmail.to required; numeric strings are numbers (uptime DynamicSettingsSchema in the dynamic-settings route; config-schema number conversion)', async () => {
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ certAgeThreshold: 0 }, '[request body.certAgeThreshold]: Value must be equal to or greater than [1].'],
      [{ cert_expiration_threshold: 2.5 }, '[request body.cert_expiration_threshold]: Value must be an integer.'],
      [{ heartbeatIndices: '' }, '[request body.heartbeatIndices]: value has length [0] but it must have a minimum length of [1].'],
      [{ defaultEmail: { cc: ['a@example.com'] } }, '[request body.defaultEmail.to]: expected value of type [array] but got [undefined]'],
      [{ defaultEmail: { to: [], from: [] } }, '[request body.defaultEmail.from]: definition for this key is missing'],
    ];
    for (const [body, message] of refused) {
      const res = await call(emu, 'PUT', SETTINGS, body);
      assert.deepEqual(res.body, { statusCode: 400, error: 'Bad Request', message }, JSON.stringify(body));
    }
    const converted = await call(emu, 'PUT', SETTINGS, { certAgeThreshold: '365' });
    assert.equal(converted.status, 200);
    assert.equal(converted.body.certAgeThreshold, 365);
    await call(emu, 'PUT', SETTINGS, DEFAULTS);
  });

  it('settings are per space (wire-facts 0.1: uptime settings are space-scoped; service-api.md cross-cutting rule 1)', async () => {
    await call(emu, 'PUT', '/s/other' + SETTINGS, { cert_age_threshold: 1 });
    assert.equal((await call(emu, 'GET', '/s/other' + SETTINGS)).body.certAgeThreshold, 1);
    assert.deepEqual((await call(emu, 'GET', SETTINGS)).body, DEFAULTS);
  });
});

describe('emulator uptime settings privileges', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator({ credentials: KEYS.credentials });
  });
  after(() => emu.stop());

  it('read needs read and update needs all (service-api.md Authentication 6: "uptime settings read needs read and update needs all")', async () => {
    const { viewer, full } = KEYS;
    assert.equal((await call(emu, 'GET', SETTINGS, undefined, viewer)).status, 200);
    const denied = await call(emu, 'PUT', SETTINGS, { cert_age_threshold: 5 }, viewer);
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error, 'Forbidden');
    assert.equal((await call(emu, 'PUT', SETTINGS, { cert_age_threshold: 5 }, full)).status, 200);
    assert.equal((await call(emu, 'GET', SETTINGS)).status, 401);
  });
});
