import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mapSecretVars, type PackageInfo } from '../../src/kinds/fleet/packages.js';

/**
 * The server's secrets service takes a package var as secret when its definition says
 * `secret: true`, whatever its type (package-spec allows `secret` on any var); svcform went by
 * `type: password` only, so a secret text var was compared in clear (a plan that never settled
 * against a server answering it as a reference) and exported in clear (one answering it in clear).
 */

const PKG: PackageInfo = {
  name: 'acme',
  version: '1.0.0',
  vars: [
    { name: 'api_token', type: 'text', secret: true },
    { name: 'password', type: 'password' },
    { name: 'endpoint', type: 'text' },
  ],
  policy_templates: [{ name: 'acme', inputs: [{ type: 'httpjson', vars: [{ name: 'client_secret', type: 'textarea', secret: true }] }] }],
  data_streams: [{ dataset: 'acme.events', streams: [{ input: 'httpjson', vars: [{ name: 'signing_key', type: 'yaml', secret: true }, { name: 'interval', type: 'text' }] }] }],
};

describe('package policy secret vars', () => {
  it('are the vars declared secret: true of any type, and passwords, at package, input and stream level', () => {
    const state = {
      vars: { api_token: 'T', password: 'P', endpoint: 'https://acme.example' },
      inputs: { 'acme-httpjson': { vars: { client_secret: 'C' }, streams: { 'acme.events': { vars: { signing_key: 'K', interval: '1m' } } } } },
    };
    const seen: string[] = [];
    mapSecretVars(PKG, state, (scope, name) => {
      seen.push([scope.input, scope.stream, name].filter(Boolean).join('/'));
      return undefined;
    });
    assert.deepEqual(seen.sort(), ['acme-httpjson/acme.events/signing_key', 'acme-httpjson/client_secret', 'api_token', 'password']);
    assert.deepEqual(state, { vars: { endpoint: 'https://acme.example' }, inputs: { 'acme-httpjson': { vars: {}, streams: { 'acme.events': { vars: { interval: '1m' } } } } } });
  });
});
