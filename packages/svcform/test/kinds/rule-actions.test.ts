import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, emulator } from '@svcform/emulator/testing.js';
import { fetchRequester } from '../helpers/requester.js';
import { resource } from '../helpers/resource.js';
import { ruleAdapter } from '../../src/kinds/rule/rule.js';
import type { AdapterContext } from '../../src/kinds/types.js';
import type { ApiRequest } from '../../src/client/types.js';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { contextFor } from '../../src/engine/context.js';
import { RunScope } from '../../src/kinds/run-scope.js';

/** The run scope of calls that read no run state. */
const RUN = new RunScope();

/**
 * The Rule adapter sends every action's action_type_id, which the API requires and does not fill
 * from the connector (wire-facts §15 fact 1): the manifest's when it gives one, else the type of
 * the connector it names, read from GET /api/actions/connectors once per space and run.
 */

const RULES = '/api/detection_engine/rules';
const CONNECTORS = '/api/actions/connectors';
const spec = (actions: unknown[]) => ({ type: 'query', name: 'With actions', description: 'd', severity: 'low', risk_score: 21, query: 'a:b', actions });

describe('Rule adapter: actions[].action_type_id', () => {
  let emu: RunningEmulator;
  const sent: ApiRequest[] = [];
  /** A fresh run: the engine binds a new context per run, and the connector list is cached per run. */
  const newRun = (): AdapterContext => {
    const api = fetchRequester(emu.url);
    return contextFor({ api: { request: (req) => (sent.push(req), api.request(req)) }, log: () => {}, run: new RunScope() }, ruleAdapter);
  };
  const writes = () => sent.filter((r) => r.path === RULES && (r.method === 'POST' || r.method === 'PUT'));
  const lists = () => sent.filter((r) => r.method === 'GET' && r.path === CONNECTORS);

  before(async () => {
    emu = await emulator({ spaces: ['blue'] });
    await call(emu, 'POST', '/api/actions/connector/chat', { name: 'Chat', connector_type_id: '.chat', secrets: { webhookUrl: 'https://chat.example/x' } });
    await call(emu, 'POST', '/api/actions/connector/log', { name: 'Log', connector_type_id: '.server-log' });
    await call(emu, 'POST', '/s/blue/api/actions/connector/chat', { name: 'Blue log', connector_type_id: '.server-log' });
  });
  after(() => emu.stop());

  it('sends the live connector\'s type when the manifest gives none, listing connectors once per space and run', async () => {
    sent.length = 0;
    const ctx = newRun();
    const actions = [{ id: 'chat', group: 'default', params: { message: 'x' } }, { id: 'log', group: 'default', params: { message: 'y' } }];
    await Promise.all([1, 2, 3].map((i) => ruleAdapter.create(ctx, resource('Rule', `live-type-${i}`, spec(actions)))));
    await ruleAdapter.create(ctx, resource('Rule', 'blue-type', spec([{ id: 'chat', group: 'default', params: { message: 'x' } }]), { space: 'blue' }));
    for (const w of writes()) {
      const types = (w.body as any).actions.map((a: any) => a.action_type_id);
      assert.deepEqual(types, w.space === 'blue' ? ['.server-log'] : ['.chat', '.server-log'], `${w.space} ${(w.body as any).rule_id}`);
    }
    assert.deepEqual(lists().map((r) => r.space), ['default', 'blue'], 'one listing per space, shared by concurrent writes');
    assert.ok(lists().every((r) => r.area === 'detection_engine'), 'the listing counts against the adapter\'s own area');
  });

  it('sends the manifest\'s action_type_id as given, without listing connectors', async () => {
    sent.length = 0;
    await ruleAdapter.create(newRun(), resource('Rule', 'manifest-type', spec([{ id: 'log', group: 'default', action_type_id: '.server-log', params: { message: 'x' } }])));
    assert.equal((writes()[0].body as any).actions[0].action_type_id, '.server-log');
    assert.equal(lists().length, 0);
  });

  it('reads the list once more on a miss: a connector created earlier in the same apply is newer than the list', async () => {
    sent.length = 0;
    const ctx = newRun();
    await ruleAdapter.create(ctx, resource('Rule', 'before-new', spec([{ id: 'chat', group: 'default', params: {} }])));
    await call(emu, 'POST', '/api/actions/connector/made-in-apply', { name: 'New', connector_type_id: '.server-log' });
    const r = resource('Rule', 'after-new', spec([{ id: 'made-in-apply', group: 'default', params: { message: 'x' } }]));
    await ruleAdapter.create(ctx, r);
    assert.equal((writes().at(-1)!.body as any).actions[0].action_type_id, '.server-log');
    assert.equal(lists().length, 2);
    const live = (await ruleAdapter.list(ctx, 'default')).find((l) => l.name === 'after-new')!;
    assert.deepEqual(ruleAdapter.normalizeLive(live, RUN), ruleAdapter.normalizeDesired(r, RUN), 'the sent type does not show as a difference');
  });

  it('fails plainly when the connector is in neither listing', async () => {
    sent.length = 0;
    const ctx = newRun();
    const missing = resource('Rule', 'missing-conn', spec([{ id: 'nowhere', group: 'default', params: {} }]));
    await assert.rejects(ruleAdapter.create(ctx, missing), /actions\[0\] names connector "nowhere", which space "default" does not have/);
    await assert.rejects(ruleAdapter.create(ctx, missing), /nowhere/);
    assert.equal(lists().length, 2, 'an id known to be missing is not looked up a third time');
    assert.equal(writes().length, 0);
  });

  it('sends action_type_id on a full PUT update too', async () => {
    sent.length = 0;
    const ctx = newRun();
    const r = resource('Rule', 'live-type-1', spec([{ id: 'log', group: 'default', params: { message: 'changed' } }]));
    const live = (await ruleAdapter.list(ctx, 'default')).find((l) => l.name === 'live-type-1')!;
    await ruleAdapter.update(ctx, r, live, { rotateSecrets: false });
    const put = writes().at(-1)!;
    assert.equal(put.method, 'PUT');
    assert.equal((put.body as any).actions[0].action_type_id, '.server-log');
  });
});
