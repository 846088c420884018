import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isSecretKey, placeholdersForSecretFields } from '../../src/engine/export-secrets.js';

describe('export: placeholders for fields whose key names a credential (issue 31)', () => {
  it('keys naming a credential, in any case and spelling; keys naming where one is used are not', () => {
    for (const key of ['Authorization', 'authorization', 'X-Api-Key', 'api_key', 'apiKey', 'APIKEY', 'apiToken', 'session_token', 'password', 'passwd', 'client_secret', 'Cookie', 'Set-Cookie']) {
      assert.ok(isSecretKey(key), key);
    }
    for (const key of ['oauthTokenUrl', 'token_url', 'authType', 'hasAuth', 'url', 'user', 'Content-Type', 'description']) assert.ok(!isSecretKey(key), key);
  });

  it('replaces strings and lists of strings under such keys, the value of an object under one, and the value of a {key, value} pair, leaving the input alone', () => {
    const spec = {
      name: 'Hook',
      config: { url: 'https://h.example.com', oauthTokenUrl: 'https://idp.example.com/token', headers: { Authorization: 'Bearer abc', 'Content-Type': 'application/json' } },
      vars: { password: { value: 'pw-1', type: 'password' }, tokens: ['t-1', 't-2'], port: 443 },
      extra_headers: [{ key: 'X-Api-Key', value: 'k-1' }, { key: 'Accept', value: 'text/plain' }],
      filters: [{ meta: { key: 'user.password', value: 'not a credential' } }],
      empty: { token: '' },
    };
    const before = structuredClone(spec);
    const out = placeholdersForSecretFields(spec, { kindStem: 'package-policy', name: 'edge-1', declared: new Set() });
    assert.deepEqual(spec, before);
    assert.deepEqual(out.spec, {
      name: 'Hook',
      config: { url: 'https://h.example.com', oauthTokenUrl: 'https://idp.example.com/token', headers: { Authorization: '${env:SVCFORM_PACKAGE_POLICY_EDGE_1_CONFIG_HEADERS_AUTHORIZATION}', 'Content-Type': 'application/json' } },
      vars: { password: { value: '${env:SVCFORM_PACKAGE_POLICY_EDGE_1_VARS_PASSWORD_VALUE}', type: 'password' }, tokens: ['${env:SVCFORM_PACKAGE_POLICY_EDGE_1_VARS_TOKENS_0}', '${env:SVCFORM_PACKAGE_POLICY_EDGE_1_VARS_TOKENS_1}'], port: 443 },
      extra_headers: [{ key: 'X-Api-Key', value: '${env:SVCFORM_PACKAGE_POLICY_EDGE_1_EXTRA_HEADERS_0_VALUE}' }, { key: 'Accept', value: 'text/plain' }],
      filters: [{ meta: { key: 'user.password', value: 'not a credential' } }],
      empty: { token: '' },
    });
    assert.deepEqual(out.variables.map((v) => v.name), [
      'SVCFORM_PACKAGE_POLICY_EDGE_1_CONFIG_HEADERS_AUTHORIZATION',
      'SVCFORM_PACKAGE_POLICY_EDGE_1_VARS_PASSWORD_VALUE',
      'SVCFORM_PACKAGE_POLICY_EDGE_1_VARS_TOKENS_0',
      'SVCFORM_PACKAGE_POLICY_EDGE_1_VARS_TOKENS_1',
      'SVCFORM_PACKAGE_POLICY_EDGE_1_EXTRA_HEADERS_0_VALUE',
    ]);
    assert.match(out.variables[0].description, /^config\.headers\.Authorization of edge-1: /);
  });

  it("keeps the adapter's own placeholders, and never gives two fields one variable", () => {
    const spec = { secrets: { password: '${env:SVCFORM_CONNECTOR_HOOK_PASSWORD}' }, headers: { 'X-Token': 'a', 'X_Token': 'b' } };
    const out = placeholdersForSecretFields(spec, { kindStem: 'connector', name: 'hook', declared: new Set(['SVCFORM_CONNECTOR_HOOK_PASSWORD']) });
    assert.equal(out.spec.secrets.password, '${env:SVCFORM_CONNECTOR_HOOK_PASSWORD}');
    assert.deepEqual(out.spec.headers, { 'X-Token': '${env:SVCFORM_CONNECTOR_HOOK_HEADERS_X_TOKEN}', X_Token: '${env:SVCFORM_CONNECTOR_HOOK_HEADERS_X_TOKEN_2}' });
  });

  it('a spec with nothing secret comes back as the same object and asks for no variable', () => {
    const spec = { name: 'n', config: { url: 'https://x' } };
    const out = placeholdersForSecretFields(spec, { kindStem: 'connector', name: 'x', declared: new Set() });
    assert.equal(out.spec, spec);
    assert.deepEqual(out.variables, []);
  });
});
