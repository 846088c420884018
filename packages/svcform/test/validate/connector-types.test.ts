import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectWarnings, svcform, valid } from './harness.js';
import { repo } from '../helpers/repo.js';

describe('svcform validate: connector types as wide as the real server (wire-facts §16 #5, #12)', () => {
  it('takes any type id and a webhook authType of null; a type it does not know is a warning, with a suggestion when one is near', async () => {
    const file = valid('connector-types.yaml');
    const run = await svcform(['validate', file], { SVCFORM_TEST_ROUTING_KEY: 'rk-1' });
    assert.equal(run.code, 0, run.stderr);
    expectWarnings(run, file, [
      '32:3 Connector/soc-typo: spec.connector_type_id ".web-hook" is not a connector type svcform knows (did you mean .webhook?); plan checks it against the types the target offers',
      '42:3 Connector/soc-plugin: spec.connector_type_id ".acme-helpdesk" is not a connector type svcform knows; plan checks it',
      '46:5 Connector/soc-plugin: spec.secrets.REPLACE_WITH_SECRET_KEY is the export\'s placeholder: replace it with the secret keys of .acme-helpdesk; until then svcform never writes this connector',
    ]);
  });

  it('takes a .gen-ai connector without an API key, authenticated by a client certificate (OAS genai_secrets: no secret required)', async () => {
    const yaml = ['apiVersion: svcform/v1', 'kind: Connector', 'metadata: {name: soc-llm-mtls}', 'spec:', '  name: SOC assistant, mTLS', '  connector_type_id: .gen-ai', '  config: {apiProvider: Other, apiUrl: https://llm.example.com/v1/chat/completions, defaultModel: m-large}', '  secrets: {certificateData: CERT, privateKeyData: KEY}', ''].join('\n');
    const run = await svcform(['validate', repo({ 'llm.yaml': yaml })]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.lines.length, 0, run.stderr);
  });
});
