import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const PP = '/api/fleet/package_policies';
const AP = '/api/fleet/agent_policies';
const SYSTEM = { name: 'system', version: '1.60.0' };

describe('Fleet package policies (service-api.md Fleet policies, wire-facts 6)', () => {
  let emu: RunningEmulator;
  let counter = 0;
  const create = async (fields: Record<string, unknown> = {}) => {
    counter += 1;
    const res = await call(emu, 'POST', `${PP}?format=simplified`, { name: `pp ${counter}`, policy_ids: ['agents-a'], package: SYSTEM, ...fields });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.item;
  };
  const revision = async (id: string) => (await call(emu, 'GET', `${AP}/${id}`)).body.item.revision;

  before(async () => {
    emu = await emulator({ spaces: ['other'] });
    for (const id of ['agents-a', 'agents-b']) {
      assert.equal((await call(emu, 'POST', AP, { id, name: id, namespace: 'default' })).status, 200);
    }
  });
  after(() => emu.stop());

  it('create answers `item.id` and honours a chosen id (service-api.md: "reply `item.id`"; wire-facts 6.2: "Client-settable `id`")', async () => {
    const chosen = await create({ id: 'chosen-pp' });
    assert.equal(chosen.id, 'chosen-pp');
    const generated = await create();
    assert.match(generated.id, /^[0-9a-f-]{36}$/);
  });

  it('expands every input and stream of the package with var defaults and default enabled flags (wire-facts 6.3: "The server expands every input and stream of the package")', async () => {
    const item = await create({ inputs: { 'system-logfile': { streams: { 'system.auth': { vars: { paths: ['/var/log/auth.log'] } } } } } });
    assert.deepEqual(Object.keys(item.inputs).sort(), ['system-httpjson', 'system-logfile', 'system-system/metrics', 'system-winlog']);
    const logfile = item.inputs['system-logfile'];
    assert.deepEqual(logfile.streams['system.auth'].vars.paths, ['/var/log/auth.log']);
    assert.equal(logfile.streams['system.auth'].vars.ignore_older, '72h', 'an unnamed var keeps its default');
    assert.deepEqual(logfile.streams['system.syslog'].vars.paths, ['/var/log/messages*', '/var/log/syslog*', '/var/log/system*']);
    assert.equal(item.inputs['system-system/metrics'].streams['system.core'].enabled, false, 'a stream the package disables stays off');
    assert.equal(item.inputs['system-system/metrics'].streams['system.cpu'].enabled, true);
    assert.equal(item.inputs['system-httpjson'].enabled, false, 'an input whose streams are all off is off');
    assert.equal(item.inputs['system-httpjson'].vars.url, 'https://server.example.com:8089');
  });

  it('uses `<policy_template>-<input_type>` input ids and `<package>.<dataset>` stream ids (wire-facts 6.2)', async () => {
    const item = await create({ package: { name: 'log', version: '2.4.3' }, inputs: { 'logs-logfile': { streams: { 'log.logs': { vars: { paths: ['/srv/app.log'] } } } } } });
    assert.deepEqual(Object.keys(item.inputs), ['logs-logfile']);
    assert.deepEqual(Object.keys(item.inputs['logs-logfile'].streams), ['log.logs']);
  });

  it('turns on an input and a stream the body names unless it says enabled: false (wire-facts 6.2 simplified body)', async () => {
    const item = await create({
      inputs: {
        'system-system/metrics': { streams: { 'system.core': {}, 'system.cpu': { enabled: false } } },
        'system-winlog': { enabled: false },
      },
    });
    assert.equal(item.inputs['system-system/metrics'].streams['system.core'].enabled, true);
    assert.equal(item.inputs['system-system/metrics'].streams['system.cpu'].enabled, false);
    assert.equal(item.inputs['system-winlog'].enabled, false);
  });

  it('refuses an unknown input, stream or var with 400', async () => {
    const base = { name: 'bad inputs', policy_ids: ['agents-a'], package: SYSTEM };
    const input = await call(emu, 'POST', PP, { ...base, inputs: { 'system-nope': {} } });
    assert.equal(input.status, 400);
    assert.equal(input.body.message, 'Input not found: system-nope');
    const stream = await call(emu, 'POST', PP, { ...base, inputs: { 'system-logfile': { streams: { 'system.nope': {} } } } });
    assert.equal(stream.body.message, 'Stream not found system-logfile: system.nope');
    const variable = await call(emu, 'POST', PP, { ...base, inputs: { 'system-logfile': { streams: { 'system.auth': { vars: { colour: 'x' } } } } } });
    assert.equal(variable.body.message, 'Variable system-logfile system.auth:colour not found');
  });

  it('refuses an enabled stream without its required var with 400 (custom logs `paths`)', async () => {
    const res = await call(emu, 'POST', PP, { name: 'no paths', policy_ids: ['agents-a'], package: { name: 'log', version: '2.4.3' } });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /^Package policy is invalid: inputs\.logfile\.streams\.log\.logs\.vars\.paths: .* is required$/);
  });

  it('fills the response-only fields (wire-facts 6.3)', async () => {
    const item = await create({ policy_ids: ['agents-a', 'agents-b'] });
    assert.match(item.version, /^[A-Za-z0-9+/=]+$/);
    assert.equal(item.revision, 1);
    assert.equal(item.created_by, 'elastic');
    assert.equal(item.updated_by, 'elastic');
    assert.equal(typeof item.created_at, 'string');
    assert.equal(item.policy_id, 'agents-a', 'policy_id mirrors the first policy_ids');
    assert.equal(item.enabled, true);
    assert.equal(item.package.title, 'System');
    assert.deepEqual(item.secret_references, []);
    assert.equal(item.namespace, '');
  });

  it('refuses a second policy with the same name with 409 (wire-facts 6.2: "Package policy names must be unique (409)")', async () => {
    await create({ name: 'unique pp' });
    const res = await call(emu, 'POST', PP, { name: 'unique pp', policy_ids: ['agents-a'], package: SYSTEM });
    assert.equal(res.status, 409);
    assert.equal(res.body.error, 'Conflict');
  });

  it('stores the name trimmed and checks its uniqueness so (fleet services/package_policy.ts create and update: "trailing whitespace causes issues creating API keys")', async () => {
    const item = await create({ name: '  padded policy  ' });
    assert.equal(item.name, 'padded policy');
    const clash = await call(emu, 'POST', `${PP}?format=simplified`, { name: 'padded policy ', policy_ids: ['agents-b'], package: SYSTEM });
    assert.equal(clash.status, 409, JSON.stringify(clash.body));
    assert.match(clash.body.message, /the name padded policy already exists/);
    const updated = await call(emu, 'PUT', `${PP}/${item.id}?format=simplified`, { name: 'padded policy 2\t', policy_ids: ['agents-a'], package: SYSTEM });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.item.name, 'padded policy 2');
  });

  it('answers 404 for a package that does not exist (service-api.md Errors: "Resource does not exist (..., package, ...) | 404")', async () => {
    const unknown = await call(emu, 'POST', PP, { name: 'no such package', policy_ids: ['agents-a'], package: { name: 'nope', version: '1.0.0' } });
    assert.equal(unknown.status, 404);
    const version = await call(emu, 'POST', PP, { name: 'no such version', policy_ids: ['agents-a'], package: { name: 'system', version: '0.0.1' } });
    assert.equal(version.status, 404);
  });

  it('answers 404 when a policy_ids entry names no agent policy', async () => {
    const res = await call(emu, 'POST', PP, { name: 'orphan', policy_ids: ['no-such-policy'], package: SYSTEM });
    assert.equal(res.status, 404);
    assert.equal(res.body.message, 'Agent policy no-such-policy not found');
  });

  it('installs the package when it is not installed', async () => {
    assert.equal((await call(emu, 'GET', '/api/fleet/epm/packages/hostquery_manager')).body.item.status, 'not_installed');
    await create({ package: { name: 'hostquery_manager', version: '1.14.0' } });
    assert.equal((await call(emu, 'GET', '/api/fleet/epm/packages/hostquery_manager')).body.item.status, 'installed');
  });

  it('adds a limited package only once per agent policy (service-api.md GET /epm/packages/limited: "packages that may be added once per agent policy")', async () => {
    await create({ package: { name: 'endpoint', version: '8.18.1' }, policy_ids: ['agents-b'] });
    const res = await call(emu, 'POST', PP, { name: 'second endpoint', policy_ids: ['agents-b'], package: { name: 'endpoint', version: '8.18.1' } });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /already exists on this agent policy/);
  });

  it('bumps the revision of the agent policies it is attached to', async () => {
    const before = await revision('agents-a');
    const item = await create();
    assert.equal(await revision('agents-a'), before + 1);
    await call(emu, 'DELETE', `${PP}/${item.id}`);
    assert.equal(await revision('agents-a'), before + 2);
  });

  it('refuses integrations on a hosted agent policy without force', async () => {
    const res = await call(emu, 'POST', PP, { name: 'on hosted', policy_ids: ['fleet-server-policy'], package: SYSTEM });
    assert.equal(res.status, 400);
    const forced = await call(emu, 'POST', PP, { name: 'on hosted', policy_ids: ['fleet-server-policy'], package: SYSTEM, force: true });
    assert.equal(forced.status, 200);
    assert.equal(forced.body.item.is_managed, true);
  });

  it('GET answers the legacy array form by default and the simplified map with ?format=simplified (wire-facts 6.2: "legacy format has `inputs` as an array with vars as `{type,value}`")', async () => {
    await create({ id: 'formats' });
    const legacy = await call(emu, 'GET', `${PP}/formats`);
    assert.ok(Array.isArray(legacy.body.item.inputs));
    const auth = legacy.body.item.inputs.find((i: any) => i.type === 'logfile').streams.find((s: any) => s.data_stream.dataset === 'system.auth');
    assert.deepEqual(auth.vars.ignore_older, { type: 'text', value: '72h' });
    assert.ok(auth.compiled_stream);
    const simplified = await call(emu, 'GET', `${PP}/formats?format=simplified`);
    assert.equal(simplified.body.item.inputs['system-logfile'].streams['system.auth'].vars.ignore_older, '72h');
  });

  it('GET answers 404 for a missing package policy (service-api.md Errors: 404 not-found)', async () => {
    const res = await call(emu, 'GET', `${PP}/nope`);
    assert.equal(res.status, 404);
    assert.equal(res.body.statusCode, 404);
  });

  describe('list', () => {
    it('answers items, total, page, perPage with perPage 20 by default (wire-facts 0.4, 6.1)', async () => {
      while ((await call(emu, 'GET', PP)).body.total < 25) await create();
      const res = await call(emu, 'GET', PP);
      assert.deepEqual(Object.keys(res.body).sort(), ['items', 'page', 'perPage', 'total']);
      assert.equal(res.body.perPage, 20);
      assert.equal(res.body.items.length, 20);
      assert.ok(Array.isArray(res.body.items[0].inputs));
    });

    it('answers the simplified form with format=simplified and pages without overlap', async () => {
      const a = await call(emu, 'GET', `${PP}?format=simplified&perPage=7&page=1&sortField=name&sortOrder=asc`);
      const b = await call(emu, 'GET', `${PP}?format=simplified&perPage=7&page=2&sortField=name&sortOrder=asc`);
      const both = await call(emu, 'GET', `${PP}?format=simplified&perPage=14&sortField=name&sortOrder=asc`);
      assert.ok(!Array.isArray(a.body.items[0].inputs));
      assert.deepEqual([...a.body.items, ...b.body.items].map((p: any) => p.id), both.body.items.map((p: any) => p.id));
    });

    it('filters with kuery', async () => {
      const res = await call(emu, 'GET', `${PP}?perPage=100&kuery=${encodeURIComponent('ingest-package-policies.package.name:log')}`);
      assert.ok(res.body.total >= 1);
      assert.ok(res.body.items.every((p: any) => p.package.name === 'log'));
    });
  });

  describe('update', () => {
    it('replaces the policy from a simplified body with a map of inputs: unnamed inputs go back to the defaults (fleet server/routes/package_policy/handlers.ts updatePackagePolicyHandler: "body.inputs && isSimplifiedCreatePackagePolicyRequest")', async () => {
      const item = await create({ id: 'to-update', inputs: { 'system-logfile': { streams: { 'system.auth': { vars: { ignore_older: '24h' } } } } } });
      const res = await call(emu, 'PUT', `${PP}/to-update?format=simplified`, { name: item.name, policy_ids: ['agents-a', 'agents-b'], package: SYSTEM, description: 'now described', inputs: {} });
      assert.equal(res.status, 200);
      assert.equal(res.body.item.inputs['system-logfile'].streams['system.auth'].vars.ignore_older, '72h');
      assert.deepEqual(res.body.item.policy_ids, ['agents-a', 'agents-b']);
      assert.equal(res.body.item.description, 'now described');
      assert.equal(res.body.item.revision, 2);
      assert.equal(res.body.item.created_at, item.created_at);
    });

    it('merges a body without inputs onto the stored policy: its inputs stay (handlers.ts updatePackagePolicyHandler: "inputs: restOfBody.inputs ?? packagePolicyInputs")', async () => {
      const item = await create({ id: 'merged-update', inputs: { 'system-logfile': { streams: { 'system.auth': { vars: { ignore_older: '24h' } } } } } });
      const res = await call(emu, 'PUT', `${PP}/merged-update?format=simplified`, { name: item.name, package: SYSTEM, description: 'described' });
      assert.equal(res.status, 200);
      assert.equal(res.body.item.inputs['system-logfile'].streams['system.auth'].vars.ignore_older, '24h');
      assert.deepEqual(res.body.item.policy_ids, item.policy_ids);
      assert.equal(res.body.item.description, 'described');
    });

    it('checks the optional version token: 409 on mismatch (wire-facts 6.2: "409 on mismatch")', async () => {
      const item = await create();
      const stale = await call(emu, 'PUT', `${PP}/${item.id}`, { name: item.name, policy_ids: ['agents-a'], package: SYSTEM, version: 'WzEsMV0=' });
      assert.equal(stale.status, 409);
      const fresh = await call(emu, 'PUT', `${PP}/${item.id}`, { name: item.name, policy_ids: ['agents-a'], package: SYSTEM, version: item.version });
      assert.equal(fresh.status, 200);
      assert.notEqual(fresh.body.item.version, item.version);
    });

    it('detaches with policy_ids: [] (wire-facts 6.2: "send `policy_ids: []` to clear associations")', async () => {
      const item = await create();
      const res = await call(emu, 'PUT', `${PP}/${item.id}?format=simplified`, { name: item.name, policy_ids: [], package: SYSTEM });
      assert.deepEqual(res.body.item.policy_ids, []);
      assert.equal(res.body.item.policy_id, null);
    });
  });

  describe('delete', () => {
    it('DELETE /{id} answers {id} (wire-facts 6.1: "delete one ... `{id}`")', async () => {
      const item = await create();
      const res = await call(emu, 'DELETE', `${PP}/${item.id}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { id: item.id });
      assert.equal((await call(emu, 'GET', `${PP}/${item.id}`)).status, 404);
      assert.equal((await call(emu, 'DELETE', `${PP}/${item.id}`)).status, 404);
    });

    it('bulk delete answers one result per id (service-api.md: "package policies: ... delete (force, single or bulk)")', async () => {
      const a = await create();
      const res = await call(emu, 'POST', `${PP}/delete`, { packagePolicyIds: [a.id, 'missing-pp'] });
      assert.equal(res.status, 200);
      assert.equal(res.body[0].id, a.id);
      assert.equal(res.body[0].success, true);
      assert.deepEqual(res.body[0].package, { name: 'system', title: 'System', version: '1.60.0' });
      assert.equal(res.body[1].success, false);
      assert.equal(res.body[1].statusCode, 404);
    });

    it('removes a policy of a hosted agent policy only with force', async () => {
      const item = await create({ policy_ids: ['fleet-server-policy'], force: true, name: 'hosted to delete' });
      assert.equal((await call(emu, 'DELETE', `${PP}/${item.id}`)).status, 400);
      const forced = await call(emu, 'POST', `${PP}/delete`, { packagePolicyIds: [item.id], force: true });
      assert.equal(forced.body[0].success, true);
    });
  });

  describe('bulk get', () => {
    it('answers items, and 404 for a missing id without ignoreMissing (service-api.md Errors: "missing id in bulk get without ignore_missing | 404")', async () => {
      const a = await create();
      const ok = await call(emu, 'POST', `${PP}/_bulk_get?format=simplified`, { ids: [a.id] });
      assert.equal(ok.body.items[0].id, a.id);
      assert.ok(!Array.isArray(ok.body.items[0].inputs));
      assert.equal((await call(emu, 'POST', `${PP}/_bulk_get`, { ids: [a.id, 'gone'] })).status, 404);
      const ignored = await call(emu, 'POST', `${PP}/_bulk_get`, { ids: [a.id, 'gone'], ignoreMissing: true });
      assert.equal(ignored.body.items.length, 1);
    });
  });

  describe('upgrade', () => {
    it('dry run shows the policy at the installed version and upgrade moves it there keeping its values (service-api.md: "upgrade dry run and upgrade (package_policy_ids)")', async () => {
      const old = await create({ package: { name: 'system', version: '1.58.0' }, inputs: { 'system-logfile': { streams: { 'system.auth': { vars: { ignore_older: '12h' } } } } } });
      assert.equal(old.package.version, '1.58.0');
      assert.equal('preserve_original_event' in old.inputs['system-logfile'].streams['system.auth'].vars, false);
      const dry = await call(emu, 'POST', `${PP}/upgrade/dryrun`, { packagePolicyIds: [old.id] });
      assert.equal(dry.body[0].hasErrors, false);
      assert.equal(dry.body[0].diff[1].package.version, '1.60.0');
      const res = await call(emu, 'POST', `${PP}/upgrade`, { packagePolicyIds: [old.id] });
      assert.equal(res.body[0].success, true);
      const after = await call(emu, 'GET', `${PP}/${old.id}?format=simplified`);
      assert.equal(after.body.item.package.version, '1.60.0');
      const auth = after.body.item.inputs['system-logfile'].streams['system.auth'].vars;
      assert.equal(auth.ignore_older, '12h');
      assert.equal(auth.preserve_original_event, false);
    });
  });

  it('keeps package policies of one space invisible from another (service-api.md cross-cutting rule 1)', async () => {
    const item = await create({ id: 'space-a-pp' });
    assert.equal((await call(emu, 'GET', `/s/other${PP}/${item.id}`)).status, 404);
    assert.equal((await call(emu, 'GET', `/s/other${PP}`)).body.total, 0);
    const attach = await call(emu, 'POST', `/s/other${PP}`, { name: 'cross space', policy_ids: ['agents-a'], package: SYSTEM });
    assert.equal(attach.status, 404, 'agent policies of another space cannot be named either');
  });
});
