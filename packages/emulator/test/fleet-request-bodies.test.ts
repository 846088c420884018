import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

/**
 * Fleet request bodies are checked as the server's schemas check them. Sources: the schemas in
 * x-pack/platform/plugins/shared/fleet/server/types/models/package_policy.ts and agent_policy.ts,
 * the route declarations in types/rest_spec/package_policy.ts (create and update take
 * oneOf[legacy body, simplified body]), and the wording of the validation library
 * (src/platform/packages/shared/kbn-config-schema: types/union_type.ts, types/object_type.ts,
 * errors/validation_error.ts). wire-facts 15 facts 2 and 6.
 */

const PP = '/api/fleet/package_policies';
const AP = '/api/fleet/agent_policies';
const SYSTEM = { name: 'system', version: '1.60.0' };

describe('Fleet package-policy bodies: legacy or simplified, never a mix (wire-facts 15 fact 2)', () => {
  let emu: RunningEmulator;
  let counter = 0;
  const simplified = (fields: Record<string, unknown> = {}) => ({ name: `body ${++counter}`, policy_ids: ['agents'], package: SYSTEM, ...fields });
  const legacyInputs = [
    {
      type: 'logfile',
      policy_template: 'system',
      enabled: true,
      streams: [{ enabled: true, data_stream: { type: 'logs', dataset: 'system.auth' }, vars: { ignore_older: { type: 'text', value: '12h' } } }],
    },
  ];

  before(async () => {
    emu = await emulator();
    assert.equal((await call(emu, 'POST', AP, { id: 'agents', name: 'agents', namespace: 'default' })).status, 200);
  });
  after(() => emu.stop());

  it('refuses an update with a map of inputs and `version`: both branches fail, each named in the 400 (wire-facts 15 fact 2: "A map-`inputs` body with `version` fails both branches: 400")', async () => {
    const created = await call(emu, 'POST', `${PP}?format=simplified`, simplified({ id: 'mixed' }));
    assert.equal(created.status, 200);
    const res = await call(emu, 'PUT', `${PP}/mixed?format=simplified`, { ...simplified({ name: created.body.item.name }), inputs: {}, version: created.body.item.version });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, {
      statusCode: 400,
      error: 'Bad Request',
      message: [
        '[request body]: types that failed validation:',
        '- [request body.0.inputs]: expected value of type [array] but got [Object]',
        '- [request body.1.version]: definition for this key is missing',
      ].join('\n'),
    });
  });

  it('takes `version` in a legacy update (inputs as an array) and checks it (models/package_policy.ts UpdatePackagePolicyRequestBodySchema: version)', async () => {
    const created = (await call(emu, 'POST', PP, simplified({ id: 'legacy-update' }))).body.item;
    const res = await call(emu, 'PUT', `${PP}/legacy-update`, { name: created.name, package: SYSTEM, inputs: legacyInputs, version: created.version });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const auth = res.body.item.inputs.find((i: any) => i.type === 'logfile').streams.find((s: any) => s.data_stream.dataset === 'system.auth');
    assert.equal(auth.vars.ignore_older.value, '12h');
  });

  it('creates from a legacy body: inputs as an array, vars as {type, value} (models/package_policy.ts CreatePackagePolicyRequestBodySchema)', async () => {
    const res = await call(emu, 'POST', `${PP}?format=simplified`, { ...simplified(), inputs: legacyInputs, enabled: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.item.inputs['system-logfile'].streams['system.auth'].vars.ignore_older, '12h');
  });

  it('refuses `enabled` and `overrides` in a simplified body (wire-facts 15 fact 2: "no `version`, `enabled`, `overrides`")', async () => {
    for (const key of ['enabled', 'overrides']) {
      const res = await call(emu, 'POST', PP, simplified({ inputs: {}, [key]: key === 'enabled' ? true : null }));
      assert.equal(res.status, 400);
      assert.equal(res.body.message, [
        '[request body]: types that failed validation:',
        '- [request body.0.inputs]: expected value of type [array] but got [Object]',
        `- [request body.1.${key}]: definition for this key is missing`,
      ].join('\n'));
    }
  });

  it('knows no `condition` on a simplified input or stream (models/package_policy.ts SimplifiedPackagePolicyInputsSchema: enabled, vars, streams)', async () => {
    const onInput = await call(emu, 'POST', PP, simplified({ inputs: { 'system-logfile': { condition: 'true' } } }));
    assert.equal(onInput.status, 400);
    assert.match(onInput.body.message, /\n- \[request body\.1\.inputs\.system-logfile\.condition\]: definition for this key is missing$/);
    const onStream = await call(emu, 'POST', PP, simplified({ inputs: { 'system-logfile': { streams: { 'system.auth': { condition: 'true' } } } } }));
    assert.match(onStream.body.message, /\n- \[request body\.1\.inputs\.system-logfile\.streams\.system\.auth\.condition\]: definition for this key is missing$/);
  });

  it('names what each branch missed when a create body has neither inputs array nor package (union_type.ts; object_type.ts "expected a plain object value")', async () => {
    const res = await call(emu, 'POST', PP, { name: 'no package' });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, [
      '[request body]: types that failed validation:',
      '- [request body.0.inputs]: expected value of type [array] but got [undefined]',
      '- [request body.1.package]: expected a plain object value, but found [undefined] instead.',
    ].join('\n'));
  });

  it('reports a union inside a branch with its own paths, indented one level (union_type.ts keeps the nested errors\' paths; validation_error.ts indents them)', async () => {
    const res = await call(emu, 'POST', PP, simplified({ inputs: {}, output_id: 5 }));
    assert.equal(res.status, 400);
    const nested = [' - [request body.output_id.0]: expected value to equal [null]', ' - [request body.output_id.1]: expected value of type [string] but got [number]'];
    assert.equal(res.body.message, [
      '[request body]: types that failed validation:',
      '- [request body.0.output_id]: types that failed validation:',
      ...nested,
      '- [request body.1.output_id]: types that failed validation:',
      ...nested,
    ].join('\n'));
  });

  it('refuses a simplified var that is neither a scalar, a list of scalars nor a secret reference; a record value is checked on its own, so the nested union lines carry paths relative to the var (models/package_policy.ts SimplifiedVarsSchema; kbn-config-schema internals/index.ts record entries, types/record_type.ts)', async () => {
    const res = await call(emu, 'POST', PP, simplified({ inputs: { 'system-logfile': { streams: { 'system.auth': { vars: { ignore_older: { value: '12h' } } } } } } }));
    assert.equal(res.status, 400);
    assert.equal(res.body.message, [
      '[request body]: types that failed validation:',
      '- [request body.0.inputs]: expected value of type [array] but got [Object]',
      '- [request body.1.inputs.system-logfile.streams.system.auth.vars.ignore_older]: types that failed validation:',
      ' - [request body.0]: types that failed validation:',
      '  - [request body.0]: expected value of type [boolean] but got [Object]',
      '  - [request body.1]: expected value of type [string] but got [Object]',
      '  - [request body.2]: expected value of type [number] but got [Object]',
      '  - [request body.3]: expected value of type [array] but got [Object]',
      '  - [request body.4]: expected value of type [array] but got [Object]',
      '  - [request body.5.id]: expected value of type [string] but got [undefined]',
      ' - [request body.1]: expected value to equal [null]',
    ].join('\n'));
  });

  it('accepts the simplified body svcform sends: map of inputs, no version (models/package_policy.ts SimplifiedCreatePackagePolicyRequestBodySchema)', async () => {
    const body = simplified({ namespace: '', description: '', output_id: null, package: { name: 'system', version: '1.58.0' }, inputs: { 'system-logfile': { enabled: true, streams: { 'system.auth': { enabled: true, vars: { paths: ['/var/log/auth.log'] } } } } } });
    const created = await call(emu, 'POST', `${PP}?format=simplified`, { ...body, id: 'svcform-shaped' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const update = await call(emu, 'PUT', `${PP}/svcform-shaped?format=simplified`, { ...body, package: SYSTEM });
    assert.equal(update.status, 200, JSON.stringify(update.body));
    assert.equal(update.body.item.package.version, '1.60.0', 'package.version moves the policy to that version');
  });
});

describe('Fleet agent-policy bodies (models/agent_policy.ts AgentPolicyBaseSchema; wire-facts 15 fact 6)', () => {
  let emu: RunningEmulator;
  let counter = 0;
  const body = (fields: Record<string, unknown> = {}) => ({ name: `policy ${++counter}`, namespace: 'default', ...fields });

  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());

  it('refuses unknown keys inside nested objects too (object_type.ts: "definition for this key is missing")', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ monitoring_http: { enabled: true, colour: 'red' } }, '[request body.monitoring_http.colour]: definition for this key is missing'],
      [{ advanced_settings: { agent_logging_level: 'debug', agent_colour: 'red' } }, '[request body.advanced_settings.agent_colour]: definition for this key is missing'],
      [{ agent_features: [{ name: 'fqdn', enabled: true, extra: 1 }] }, '[request body.agent_features.0.extra]: definition for this key is missing'],
      [{ global_data_tags: [{ name: 'team', value: 'soc', colour: 'red' }] }, '[request body.global_data_tags.0.colour]: definition for this key is missing'],
      [{ monitoring_diagnostics: { limit: { burst: 1, rate: 2 } } }, '[request body.monitoring_diagnostics.limit.rate]: definition for this key is missing'],
    ];
    for (const [fields, message] of cases) {
      const res = await call(emu, 'POST', AP, body(fields));
      assert.equal(res.status, 400, message);
      assert.equal(res.body.message, message);
    }
  });

  it('takes bumpRevision only on update (OAS put-fleet-agent-policies-agentpolicyid adds it to the create body)', async () => {
    const refused = await call(emu, 'POST', AP, body({ bumpRevision: true }));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.message, '[request body.bumpRevision]: definition for this key is missing');
    const created = (await call(emu, 'POST', AP, body({ id: 'bumped' }))).body.item;
    const res = await call(emu, 'PUT', `${AP}/bumped`, { name: created.name, namespace: 'default', bumpRevision: false });
    assert.equal(res.status, 200);
    assert.equal('bumpRevision' in res.body.item, false);
  });

  it('words failed unions as the library does: null-or-value fields and enumerations (union_type.ts)', async () => {
    const output = await call(emu, 'POST', AP, body({ data_output_id: 5 }));
    assert.equal(output.body.message, [
      '[request body.data_output_id]: types that failed validation:',
      '- [request body.data_output_id.0]: expected value to equal [null]',
      '- [request body.data_output_id.1]: expected value of type [string] but got [number]',
    ].join('\n'));
    const overrides = await call(emu, 'POST', AP, body({ overrides: { 'inputs.x': 1 } }));
    assert.equal(overrides.body.message, [
      '[request body.overrides]: types that failed validation:',
      '- [request body.overrides.0]: expected value to equal [null]',
      '- [request body.overrides.1]: inputs overrides is not allowed',
    ].join('\n'));
    const versions = await call(emu, 'POST', AP, body({ required_versions: [{ version: '9.4.0', percentage: 120 }] }));
    assert.equal(versions.body.message, [
      '[request body.required_versions]: types that failed validation:',
      '- [request body.required_versions.0]: expected value to equal [null]',
      '- [request body.required_versions.1.0.percentage]: Value must be equal to or lower than [100].',
    ].join('\n'));
    const monitoring = await call(emu, 'POST', AP, body({ monitoring_enabled: ['logs', 'audit'] }));
    assert.equal(monitoring.body.message, [
      '[request body.monitoring_enabled.1]: types that failed validation:',
      '- [request body.monitoring_enabled.1.0]: expected value to equal [logs]',
      '- [request body.monitoring_enabled.1.1]: expected value to equal [metrics]',
      '- [request body.monitoring_enabled.1.2]: expected value to equal [traces]',
    ].join('\n'));
  });

  it('checks formats inside nested objects (models/agent_policy.ts validateMemory, validateCPU; monitoring_http.port max 65353)', async () => {
    const memory = await call(emu, 'POST', AP, body({ agentless: { resources: { requests: { memory: '1GB' } } } }));
    assert.equal(memory.body.message, '[request body.agentless.resources.requests.memory]: Invalid memory format');
    const port = await call(emu, 'POST', AP, body({ monitoring_http: { enabled: true, port: 70000 } }));
    assert.equal(port.body.message, '[request body.monitoring_http.port]: Value must be equal to or lower than [65353].');
  });

  it('reads numeric strings as numbers, as the library converts them (kbn-config-schema types/number_type.ts)', async () => {
    const res = await call(emu, 'POST', AP, body({ inactivity_timeout: '3600' }));
    assert.equal(res.status, 200);
    assert.equal(res.body.item.inactivity_timeout, 3600);
    const bad = await call(emu, 'POST', AP, body({ inactivity_timeout: 'soon' }));
    assert.equal(bad.body.message, '[request body.inactivity_timeout]: expected value of type [number] but got [string]');
  });
});

describe('the smaller Fleet bodies: agentless, copy, delete, bulk get (OAS at b76003905, request bodies of each path; wire-facts 15 fact 6)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
    emu.context.settings.selfManaged = false;
  });
  after(() => emu.stop());

  const agentless = (fields: Record<string, unknown>) => call(emu, 'POST', '/api/fleet/agentless_policies', { name: 'agentless', package: { name: 'system', version: '1.60.0' }, ...fields });

  it('agentless create refuses policy_template and unknown package keys, and takes additional_datastreams_permissions (post-fleet-agentless-policies: additionalProperties false)', async () => {
    assert.equal((await agentless({ policy_template: 'cspm' })).body.message, '[request body.policy_template]: definition for this key is missing');
    assert.equal((await agentless({ package: { name: 'system', version: '1.60.0', colour: 'red' } })).body.message, '[request body.package.colour]: definition for this key is missing');
    assert.equal((await agentless({ package: { name: 'system' } })).body.message, '[request body.package.version]: expected value of type [string] but got [undefined]');
    const res = await agentless({ id: 'agentless-perms', additional_datastreams_permissions: ['logs-extra-*'], inputs: { 'system-logfile': { enabled: false } } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.item.id, 'agentless-perms');
  });

  it('agentless create checks the body before the deployment kind: a bad body is a 400 about the body even on a self-managed deployment (route validation runs before the handler)', async () => {
    emu.context.settings.selfManaged = true;
    try {
      assert.equal((await agentless({ name: 5 })).body.message, '[request body.name]: expected value of type [string] but got [number]');
    } finally {
      emu.context.settings.selfManaged = false;
    }
  });

  it('copy takes a non-empty name and a description only (post-fleet-agent-policies-agentpolicyid-copy)', async () => {
    const copy = (body: unknown) => call(emu, 'POST', `${AP}/fleet-server-policy/copy`, body);
    assert.equal((await copy({ name: '' })).body.message, '[request body.name]: value has length [0] but it must have a minimum length of [1].');
    assert.equal((await copy({ name: 'copied', namespace: 'x' })).body.message, '[request body.namespace]: definition for this key is missing');
  });

  it('delete and bulk get read booleans as the library does, "true" included (post-fleet-agent-policies-delete, post-fleet-package-policies-bulk-get; kbn-config-schema boolean_type.ts)', async () => {
    assert.equal((await call(emu, 'POST', `${AP}/_bulk_get`, { ids: ['nope'], ignoreMissing: 'true' })).status, 200);
    assert.deepEqual((await call(emu, 'POST', '/api/fleet/package_policies/_bulk_get', { ids: ['nope'], ignoreMissing: 'true' })).body, { items: [] });
    assert.equal((await call(emu, 'POST', `${AP}/delete`, { agentPolicyId: 'nope', force: 'maybe' })).body.message, '[request body.force]: expected value of type [boolean] but got [string]');
    assert.equal((await call(emu, 'POST', `${AP}/delete`, {})).body.message, '[request body.agentPolicyId]: expected value of type [string] but got [undefined]');
    assert.equal((await call(emu, 'POST', '/api/fleet/package_policies/delete', { packagePolicyIds: ['x'], extra: 1 })).body.message, '[request body.extra]: definition for this key is missing');
  });
});

describe('Fleet package-manager bodies (OAS at b76003905: post-fleet-epm-packages-pkgname-pkgversion, put-fleet-epm-packages-pkgname-pkgversion, post-fleet-epm-packages-bulk)', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await emulator();
  });
  after(() => emu.stop());
  const EPM = '/api/fleet/epm/packages';

  it('install takes no body, null, or {force, ignore_constraints} and nothing else', async () => {
    assert.equal((await call(emu, 'POST', `${EPM}/system/1.60.0`)).status, 200);
    assert.equal((await call(emu, 'POST', `${EPM}/system/1.60.0`, { force: 'true', ignore_constraints: false })).status, 200);
    const extra = await call(emu, 'POST', `${EPM}/system/1.60.0`, { force: true, prerelease: true });
    assert.equal(extra.body.message, [
      '[request body]: types that failed validation:',
      '- [request body.0.prerelease]: definition for this key is missing',
      '- [request body.1]: expected value to equal [null]',
    ].join('\n'));
  });

  it('settings need keepPoliciesUpToDate; bulk install needs at least one package, each a name or {name, version}', async () => {
    assert.equal((await call(emu, 'PUT', `${EPM}/system/1.60.0`, {})).body.message, '[request body.keepPoliciesUpToDate]: expected value of type [boolean] but got [undefined]');
    assert.equal((await call(emu, 'POST', `${EPM}/_bulk`, { packages: [] })).body.message, '[request body.packages]: array size is [0], but cannot be smaller than [1]');
    const partial = await call(emu, 'POST', `${EPM}/_bulk`, { packages: [{ name: 'system' }] });
    assert.equal(partial.status, 400);
    assert.match(partial.body.message, /\[request body\.packages\.0\.1\.version\]: expected value of type \[string\] but got \[undefined\]/);
  });
});
