import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '../src/testing.js';
import type { RunningEmulator } from '../src/server.js';

const AP = '/api/fleet/agent_policies';

describe('Fleet agent policies (service-api.md Fleet policies, wire-facts 5)', () => {
  let emu: RunningEmulator;
  let counter = 0;
  const create = async (fields: Record<string, unknown> = {}, query = '') => {
    counter += 1;
    const res = await call(emu, 'POST', `${AP}${query}`, { name: `policy ${counter}`, namespace: 'default', ...fields });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.item;
  };

  before(async () => {
    emu = await emulator({ spaces: ['other'] });
  });
  after(() => emu.stop());

  it('create answers `item` with id, name, namespace, revision (service-api.md: "Created policy reply: `item` with id, name, namespace, revision")', async () => {
    const res = await call(emu, 'POST', AP, { id: 'created-one', name: 'Created one', namespace: 'prod' });
    assert.equal(res.status, 200);
    assert.equal(res.body.item.id, 'created-one');
    assert.equal(res.body.item.name, 'Created one');
    assert.equal(res.body.item.namespace, 'prod');
    assert.equal(res.body.item.revision, 1);
  });

  it('generates the id when omitted (service-api.md: "id | O, generated if omitted")', async () => {
    const item = await create();
    assert.match(item.id, /^[0-9a-f-]{36}$/);
  });

  it('fills the server-managed fields of a reply (wire-facts 5.4)', async () => {
    const item = await create();
    assert.equal(item.status, 'active');
    assert.equal(item.is_managed, false);
    assert.equal(item.is_protected, false);
    assert.equal(item.is_preconfigured, false);
    assert.equal(item.supports_agentless, false);
    assert.deepEqual(item.space_ids, ['default']);
    assert.equal(item.agents, 0);
    assert.equal(item.unprivileged_agents, 0);
    assert.equal(typeof item.schema_version, 'string');
    assert.equal(typeof item.updated_at, 'string');
    assert.equal(item.updated_by, 'elastic');
    assert.match(item.version, /^[A-Za-z0-9+/=]+$/);
    assert.equal('package_policies' in item, false);
  });

  it('defaults inactivity_timeout to 1209600 (service-api.md: "inactivity_timeout | int | O, seconds, minimum 0, default 1209600")', async () => {
    assert.equal((await create()).inactivity_timeout, 1209600);
  });

  it('refuses a negative inactivity_timeout (service-api.md Limits: "inactivity_timeout | agent policy | minimum 0")', async () => {
    const res = await call(emu, 'POST', AP, { name: 'negative timeout', namespace: 'default', inactivity_timeout: -1 });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /inactivity_timeout/);
  });

  it('answers description "" when omitted (wire-facts 5.3: "description comes back as \\"\\" when it was omitted")', async () => {
    assert.equal((await create()).description, '');
  });

  it('fills no monitoring_enabled when the create body omits it (wire-facts 15 fact 8: "no server default is applied on create when omitted")', async () => {
    assert.equal('monitoring_enabled' in (await create()), false);
    assert.deepEqual((await create({ monitoring_enabled: [] })).monitoring_enabled, []);
    assert.deepEqual((await create({ monitoring_enabled: ['logs'] })).monitoring_enabled, ['logs']);
  });

  it('accepts only logs, metrics, traces in monitoring_enabled (service-api.md: "any of `logs`, `metrics`, `traces`")', async () => {
    const res = await call(emu, 'POST', AP, { name: 'bad monitoring', namespace: 'default', monitoring_enabled: ['logs', 'audit'] });
    assert.equal(res.status, 400);
  });

  it('requires name and namespace on create (service-api.md: "name | string | R", "namespace | string | R")', async () => {
    const noName = await call(emu, 'POST', AP, { namespace: 'default' });
    assert.equal(noName.status, 400);
    assert.equal(noName.body.message, '[request body.name]: expected value of type [string] but got [undefined]');
    const noNamespace = await call(emu, 'POST', AP, { name: 'no namespace' });
    assert.equal(noNamespace.status, 400);
    assert.match(noNamespace.body.message, /namespace/);
  });

  it('validates the namespace (wire-facts 5.2: "namespace (required, validated)")', async () => {
    for (const [namespace, message] of [['Prod', 'Namespace must be lowercase'], ['prod-eu', 'Namespace contains invalid characters'], ['x'.repeat(101), 'Namespace cannot be more than 100 bytes']]) {
      const res = await call(emu, 'POST', AP, { name: `ns ${namespace.slice(0, 10)}`, namespace });
      assert.equal(res.status, 400);
      assert.equal(res.body.message, `[request body.namespace]: ${message}`);
      assert.equal(res.body.error, 'Bad Request');
    }
  });

  it('refuses a second policy with the same name with 409 (service-api.md: "name | string | R, unique")', async () => {
    await create({ name: 'unique name' });
    const res = await call(emu, 'POST', AP, { name: 'unique name', namespace: 'default' });
    assert.equal(res.status, 409);
    assert.deepEqual(Object.keys(res.body).sort(), ['error', 'message', 'statusCode']);
  });

  it('refuses a duplicate id with 409 (wire-facts 5.2: client-settable id)', async () => {
    await create({ id: 'dup-id' });
    const res = await call(emu, 'POST', AP, { id: 'dup-id', name: 'another name', namespace: 'default' });
    assert.equal(res.status, 409);
  });

  it('refuses body keys the schema does not define (platform route validation)', async () => {
    const res = await call(emu, 'POST', AP, { name: 'unknown key', namespace: 'default', colour: 'blue' });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, '[request body.colour]: definition for this key is missing');
  });

  it('refuses duplicate global_data_tags names (wire-facts 5.2: "no duplicate names, no spaces in names")', async () => {
    const res = await call(emu, 'POST', AP, { name: 'tags', namespace: 'default', global_data_tags: [{ name: 'team', value: 'a' }, { name: 'team', value: 'b' }] });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /duplicate tag names/);
  });

  it('creates a `system` package policy with ?sys_monitoring=true (service-api.md: "sys_monitoring | bool | query flag; when true also creates a `system` package policy")', async () => {
    const item = await create({ id: 'with-system' }, '?sys_monitoring=true');
    const pps = await call(emu, 'GET', `/api/fleet/package_policies?kuery=${encodeURIComponent('ingest-package-policies.policy_ids:with-system')}`);
    assert.equal(pps.body.total, 1);
    assert.equal(pps.body.items[0].package.name, 'system');
    assert.match(pps.body.items[0].name, /^system-\d+$/);
    assert.ok(item.revision >= 1);
  });

  it('GET one answers `item` with package_policies (service-api.md GET /api/fleet/agent_policies/{agentPolicyId}: "`item`"; wire-facts 5.4)', async () => {
    const res = await call(emu, 'GET', `${AP}/with-system`);
    assert.equal(res.status, 200);
    assert.equal(res.body.item.id, 'with-system');
    assert.equal(res.body.item.package_policies.length, 1);
    assert.ok(Array.isArray(res.body.item.package_policies[0].inputs), 'legacy format by default');
    const simplified = await call(emu, 'GET', `${AP}/with-system?format=simplified`);
    assert.ok(!Array.isArray(simplified.body.item.package_policies[0].inputs));
  });

  it('GET one answers 404 for a missing policy (wire-facts 5.1: "missing gives 404")', async () => {
    const res = await call(emu, 'GET', `${AP}/nope`);
    assert.equal(res.status, 404);
    assert.equal(res.body.statusCode, 404);
    assert.equal(res.body.message, 'Agent policy nope not found');
  });

  describe('list', () => {
    it('answers items, total, page, perPage with perPage 20 by default (service-api.md: "Reply of list: items, total, page, perPage"; wire-facts 0.4: "perPage (default 20)")', async () => {
      while ((await call(emu, 'GET', AP)).body.total < 25) await create();
      const res = await call(emu, 'GET', AP);
      assert.deepEqual(Object.keys(res.body).sort(), ['items', 'page', 'perPage', 'total']);
      assert.equal(res.body.perPage, 20);
      assert.equal(res.body.page, 1);
      assert.equal(res.body.items.length, 20);
    });

    it('pages are 1-based and do not overlap (service-api.md: "page (1-based)")', async () => {
      const first = await call(emu, 'GET', `${AP}?page=1&perPage=5&sortField=name&sortOrder=asc`);
      const second = await call(emu, 'GET', `${AP}?page=2&perPage=5&sortField=name&sortOrder=asc`);
      const all = await call(emu, 'GET', `${AP}?perPage=10&sortField=name&sortOrder=asc`);
      assert.deepEqual([...first.body.items, ...second.body.items].map((p: any) => p.id), all.body.items.map((p: any) => p.id));
    });

    it('sorts by sort_field in sort_order asc or desc (service-api.md: "sort_field, sort_order (`asc`, `desc`)")', async () => {
      const asc = (await call(emu, 'GET', `${AP}?perPage=100&sortField=name&sortOrder=asc`)).body.items.map((p: any) => p.name);
      const desc = (await call(emu, 'GET', `${AP}?perPage=100&sortField=name&sortOrder=desc`)).body.items.map((p: any) => p.name);
      assert.deepEqual(asc, [...asc].sort());
      assert.deepEqual(desc, [...asc].reverse());
      assert.equal((await call(emu, 'GET', `${AP}?sortOrder=up`)).status, 400);
    });

    it('filters with kuery on the name (service-api.md: "kuery")', async () => {
      await create({ name: 'Kuery target alpha' });
      await create({ name: 'Kuery target beta' });
      const res = await call(emu, 'GET', `${AP}?kuery=${encodeURIComponent('ingest-agent-policies.name:Kuery*')}`);
      assert.deepEqual(res.body.items.map((p: any) => p.name).sort(), ['Kuery target alpha', 'Kuery target beta']);
      const exact = await call(emu, 'GET', `${AP}?kuery=${encodeURIComponent('name:"Kuery target beta"')}`);
      assert.equal(exact.body.total, 1);
      const unknown = await call(emu, 'GET', `${AP}?kuery=${encodeURIComponent('colour:blue')}`);
      assert.equal(unknown.status, 400);
    });

    it('matches kuery wildcards without backtracking: 15 stars against a long name answer at once (issue 31)', async () => {
      await create({ name: `Stars ${'a'.repeat(60)}` });
      const started = Date.now();
      const none = await call(emu, 'GET', `${AP}?kuery=${encodeURIComponent(`name:Stars*${'a*'.repeat(15)}b`)}`);
      assert.equal(none.body.total, 0);
      const one = await call(emu, 'GET', `${AP}?kuery=${encodeURIComponent(`name:Stars*${'a*'.repeat(15)}`)}`);
      assert.equal(one.body.total, 1);
      assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
    });

    it('adds package_policies only with full=true (wire-facts 0.4: "`package_policies` only with `full=true`")', async () => {
      const plain = await call(emu, 'GET', `${AP}?perPage=100`);
      assert.ok(plain.body.items.length > 20);
      assert.ok(plain.body.items.every((p: any) => !('package_policies' in p)));
      const full = await call(emu, 'GET', `${AP}?full=true&perPage=100`);
      assert.equal(full.body.items.length, plain.body.items.length);
      assert.ok(full.body.items.every((p: any) => Array.isArray(p.package_policies)));
      assert.equal(full.body.items.find((p: any) => p.id === 'with-system').package_policies.length, 1);
    });

    it('reports agents with with_agent_count (service-api.md: "with_agent_count")', async () => {
      const res = await call(emu, 'GET', `${AP}?withAgentCount=true`);
      assert.equal(res.status, 200);
      assert.ok(res.body.items.length > 0);
      assert.ok(res.body.items.every((p: any) => p.agents === 0));
    });

    it('refuses perPage over 100 with full or withAgentCount (wire-facts 0.4: "perPage > 100 together with full=true or withAgentCount=true gives 400")', async () => {
      for (const flag of ['full=true', 'withAgentCount=true', 'noAgentCount=false']) {
        const res = await call(emu, 'GET', `${AP}?perPage=101&${flag}`);
        assert.equal(res.status, 400, flag);
        assert.match(res.body.message, /perPage should be less or equal to 100 when fetching full policies or agent count\./);
      }
      assert.equal((await call(emu, 'GET', `${AP}?perPage=1000`)).status, 200);
    });

    it('refuses a page past the search window (brief: page × per_page ≤ 10000)', async () => {
      const res = await call(emu, 'GET', `${AP}?page=11&perPage=1000`);
      assert.equal(res.status, 400);
      assert.match(res.body.message, /Result window is too large/);
    });

    it('refuses a non-numeric perPage with a route validation 400', async () => {
      const res = await call(emu, 'GET', `${AP}?perPage=many`);
      assert.equal(res.status, 400);
      assert.equal(res.body.message, '[request query.perPage]: expected value of type [number] but got [string]');
    });
  });

  describe('bulk get', () => {
    it('answers items for the ids (service-api.md POST /_bulk_get: "items")', async () => {
      const a = await create();
      const b = await create();
      const res = await call(emu, 'POST', `${AP}/_bulk_get`, { ids: [a.id, b.id] });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.items.map((p: any) => p.id), [a.id, b.id]);
    });

    it('answers 404 when an id is missing and ignoreMissing is not set (service-api.md: "404 if an id is missing and ignore_missing is not set")', async () => {
      const a = await create();
      const res = await call(emu, 'POST', `${AP}/_bulk_get`, { ids: [a.id, 'missing-one'] });
      assert.equal(res.status, 404);
      const ignored = await call(emu, 'POST', `${AP}/_bulk_get`, { ids: [a.id, 'missing-one'], ignoreMissing: true });
      assert.deepEqual(ignored.body.items.map((p: any) => p.id), [a.id]);
    });

    it('adds package_policies with full (service-api.md: "ids R, full, ignore_missing, format")', async () => {
      const res = await call(emu, 'POST', `${AP}/_bulk_get`, { ids: ['with-system'], full: true });
      assert.equal(res.body.items[0].package_policies.length, 1);
    });
  });

  describe('update', () => {
    it('requires name and namespace (service-api.md: "update agent policy (name and namespace required)")', async () => {
      const p = await create();
      assert.equal((await call(emu, 'PUT', `${AP}/${p.id}`, { namespace: 'default' })).status, 400);
      assert.equal((await call(emu, 'PUT', `${AP}/${p.id}`, { name: p.name })).status, 400);
    });

    it('merges: omitted optional fields keep their value and revision goes up by one (wire-facts 5.3: "PUT acts as a merge")', async () => {
      const p = await create({ description: 'kept', global_data_tags: [{ name: 'team', value: 'soc' }], unenroll_timeout: 600 });
      const res = await call(emu, 'PUT', `${AP}/${p.id}`, { name: p.name, namespace: 'staging' });
      assert.equal(res.status, 200);
      assert.equal(res.body.item.namespace, 'staging');
      assert.equal(res.body.item.description, 'kept');
      assert.deepEqual(res.body.item.global_data_tags, [{ name: 'team', value: 'soc' }]);
      assert.equal(res.body.item.unenroll_timeout, 600);
      assert.equal(res.body.item.revision, p.revision + 1);
    });

    it('resets inactivity_timeout to 1209600 when omitted (wire-facts 5.3: "inactivity_timeout is reset to 1209600 when omitted")', async () => {
      const p = await create({ inactivity_timeout: 3600 });
      const res = await call(emu, 'PUT', `${AP}/${p.id}`, { name: p.name, namespace: p.namespace });
      assert.equal(res.body.item.inactivity_timeout, 1209600);
    });

    it('clears with explicit values (wire-facts 5.3: "`[]` for global_data_tags, `[]` for required_versions")', async () => {
      const p = await create({ global_data_tags: [{ name: 'a', value: 1 }], required_versions: [{ version: '9.4.0', percentage: 10 }], data_output_id: 'out-1' });
      const res = await call(emu, 'PUT', `${AP}/${p.id}`, { name: p.name, namespace: p.namespace, global_data_tags: [], required_versions: [], data_output_id: null });
      assert.deepEqual(res.body.item.global_data_tags, []);
      assert.deepEqual(res.body.item.required_versions, []);
      assert.equal(res.body.item.data_output_id, null);
    });

    it('refuses a name another policy has with 409 (service-api.md: "name | string | R, unique")', async () => {
      const a = await create();
      const b = await create();
      const res = await call(emu, 'PUT', `${AP}/${b.id}`, { name: a.name, namespace: 'default' });
      assert.equal(res.status, 409);
    });

    it('answers 404 for a missing policy', async () => {
      assert.equal((await call(emu, 'PUT', `${AP}/nope`, { name: 'x', namespace: 'default' })).status, 404);
    });
  });

  describe('the preconfigured Fleet Server policy', () => {
    it('exists in every space, managed and preconfigured (wire-facts 5.4: is_managed, is_preconfigured)', async () => {
      const mine = await call(emu, 'GET', `${AP}/fleet-server-policy`);
      assert.equal(mine.body.item.is_managed, true);
      assert.equal(mine.body.item.is_preconfigured, true);
      const other = await call(emu, 'GET', `/s/other${AP}/other-fleet-server-policy`);
      assert.equal(other.body.item.is_preconfigured, true);
    });

    it('refuses an update that changes it with 400 (wire-facts 5.3: managed policies)', async () => {
      const res = await call(emu, 'PUT', `${AP}/fleet-server-policy`, { name: 'Renamed', namespace: 'default' });
      assert.equal(res.status, 400);
      assert.match(res.body.message, /Cannot update name/);
    });

    it('refuses delete with 400, even with force (wire-facts 5.3: "Delete is rejected ... for managed policies (400)")', async () => {
      for (const force of [false, true]) {
        const res = await call(emu, 'POST', `${AP}/delete`, { agentPolicyId: 'fleet-server-policy', force });
        assert.equal(res.status, 400);
      }
    });
  });

  describe('copy and delete', () => {
    it('copies a policy under a new name with its package policies (service-api.md: "copy agent policy (name)"; wire-facts 5.1)', async () => {
      const res = await call(emu, 'POST', `${AP}/with-system/copy`, { name: 'Copy of with-system', description: 'copied' });
      assert.equal(res.status, 200);
      assert.notEqual(res.body.item.id, 'with-system');
      assert.equal(res.body.item.description, 'copied');
      assert.equal(res.body.item.package_policies.length, 1);
      assert.match(res.body.item.package_policies[0].name, /\(copy\)$/);
      assert.equal((await call(emu, 'POST', `${AP}/with-system/copy`, { name: 'Copy of with-system' })).status, 409);
    });

    it('deletes with POST /delete answering {id, name} and removes its package policies (wire-facts 5.1)', async () => {
      const p = await create({ id: 'to-delete' }, '?sys_monitoring=true');
      const res = await call(emu, 'POST', `${AP}/delete`, { agentPolicyId: 'to-delete' });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { id: 'to-delete', name: p.name });
      assert.equal((await call(emu, 'GET', `${AP}/to-delete`)).status, 404);
      const left = await call(emu, 'GET', `/api/fleet/package_policies?kuery=${encodeURIComponent('policy_ids:to-delete')}`);
      assert.equal(left.body.total, 0);
      assert.equal((await call(emu, 'POST', `${AP}/delete`, { agentPolicyId: 'to-delete' })).status, 404);
    });

    it('refuses to delete a hosted policy without force (wire-facts 5.3)', async () => {
      const p = await create({ is_managed: true });
      assert.equal((await call(emu, 'POST', `${AP}/delete`, { agentPolicyId: p.id })).status, 400);
      assert.equal((await call(emu, 'POST', `${AP}/delete`, { agentPolicyId: p.id, force: true })).status, 200);
    });
  });

  describe('compiled policy and outputs', () => {
    it('answers the full policy and its YAML download (service-api.md: "get full compiled policy, download policy as YAML string")', async () => {
      const full = await call(emu, 'GET', `${AP}/with-system/full`);
      assert.equal(full.status, 200);
      assert.equal(full.body.item.id, 'with-system');
      assert.ok(full.body.item.inputs.some((i: any) => i.type === 'logfile' && i.meta.package.name === 'system'));
      const download = await call(emu, 'GET', `${AP}/with-system/download`);
      assert.match(String(download.headers.get('content-type')), /yaml/);
      assert.match(download.text, /^id: with-system$/m);
    });

    it('answers the outputs of one or many policies (service-api.md: "policy outputs for one or many policies (ids)")', async () => {
      const one = await call(emu, 'GET', `${AP}/with-system/outputs`);
      assert.equal(one.body.item.agentPolicyId, 'with-system');
      assert.equal(one.body.item.data.output.name, 'default');
      const many = await call(emu, 'POST', `${AP}/outputs`, { ids: ['with-system', 'fleet-server-policy'] });
      assert.equal(many.body.items.length, 2);
    });
  });

  describe('agentless policies', () => {
    it('answers 400 on a self-managed deployment (service-api.md: "Agentless calls are rejected with HTTP 400 on self-managed deployments")', async () => {
      const create = await call(emu, 'POST', '/api/fleet/agentless_policies', { name: 'cspm', package: { name: 'system', version: '1.60.0' } });
      assert.equal(create.status, 400);
      const remove = await call(emu, 'DELETE', '/api/fleet/agentless_policies/anything');
      assert.equal(remove.status, 400);
    });

    it('an agent policy with supports_agentless is refused on a self-managed deployment, on create and update (K-FLEET agent_policy.ts checkAgentless)', async () => {
      const message = 'supports_agentless is only allowed in serverless and cloud environments that support the agentless feature';
      const created = await call(emu, 'POST', AP, { name: 'agentless-here', namespace: 'default', supports_agentless: true });
      assert.equal(created.status, 400);
      assert.equal(created.body.message, message);
      const plain = await create({ name: 'plain-then-agentless' });
      const updated = await call(emu, 'PUT', `${AP}/${plain.id}`, { name: 'plain-then-agentless', namespace: 'default', supports_agentless: true });
      assert.equal(updated.status, 400);
      assert.equal(updated.body.message, message);
      assert.equal((await call(emu, 'POST', AP, { name: 'not-agentless', namespace: 'default', supports_agentless: false })).status, 200);
    });

    it('a hosted deployment takes supports_agentless and stores the policy as hosted (K-FLEET agent_policy.ts create: is_managed || supports_agentless)', async () => {
      emu.context.settings.selfManaged = false;
      try {
        const res = await call(emu, 'POST', AP, { name: 'agentless-policy', namespace: 'default', supports_agentless: true });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.item.is_managed, true);
        assert.equal(res.body.item.supports_agentless, true);
      } finally {
        emu.context.settings.selfManaged = true;
      }
    });

    it('creates and deletes when the deployment is hosted (service-api.md: "Agentless policy: name, package; reply `item.id`")', async () => {
      emu.context.settings.selfManaged = false;
      try {
        const res = await call(emu, 'POST', '/api/fleet/agentless_policies', { id: 'agentless-1', name: 'agentless logs', package: { name: 'system', version: '1.60.0' } });
        assert.equal(res.status, 200);
        assert.equal(res.body.item.id, 'agentless-1');
        assert.equal(res.body.item.supports_agentless, true);
        const policy = await call(emu, 'GET', `${AP}/agentless-1`);
        assert.equal(policy.body.item.supports_agentless, true);
        assert.equal((await call(emu, 'DELETE', '/api/fleet/agentless_policies/agentless-1')).status, 200);
        assert.equal((await call(emu, 'GET', `${AP}/agentless-1`)).status, 404);
      } finally {
        emu.context.settings.selfManaged = true;
      }
    });
  });

  it('keeps policies of one space invisible from another (service-api.md cross-cutting rule 1)', async () => {
    await create({ id: 'space-a-only' });
    assert.equal((await call(emu, 'GET', `/s/other${AP}/space-a-only`)).status, 404);
    const list = await call(emu, 'GET', `/s/other${AP}?perPage=1000`);
    assert.ok(list.body.items.every((p: any) => p.id !== 'space-a-only'));
    assert.deepEqual(list.body.items.map((p: any) => p.id), ['other-fleet-server-policy']);
    const created = await call(emu, 'POST', `/s/other${AP}`, { id: 'space-a-only', name: 'same id, other space', namespace: 'default' });
    assert.equal(created.status, 200);
    assert.deepEqual(created.body.item.space_ids, ['other']);
  });
});

describe('Fleet privileges (service-api.md Authentication 6, 7: feature privileges `read` and `all`)', () => {
  let emu: RunningEmulator;
  const reader = { authorization: 'ApiKey read-key' };
  before(async () => {
    emu = await emulator({ credentials: [{ type: 'apiKey', secret: 'read-key', user: 'viewer', readOnly: true }] });
  });
  after(() => emu.stop());

  it('lets a read-only key list and bulk-get but answers 403 Forbidden on writes', async () => {
    assert.equal((await call(emu, 'GET', AP, undefined, { headers: reader })).status, 200);
    assert.equal((await call(emu, 'POST', `${AP}/_bulk_get`, { ids: ['fleet-server-policy'] }, { headers: reader })).status, 200);
    assert.equal((await call(emu, 'GET', '/api/fleet/epm/packages', undefined, { headers: reader })).status, 200);
    const write = await call(emu, 'POST', AP, { name: 'nope', namespace: 'default' }, { headers: reader });
    assert.equal(write.status, 403);
    assert.equal(write.body.error, 'Forbidden');
    assert.equal((await call(emu, 'POST', '/api/fleet/epm/packages/system/1.60.0', undefined, { headers: reader })).status, 403);
  });
});
