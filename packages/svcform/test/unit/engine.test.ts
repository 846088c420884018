import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import jsonpatch from 'fast-json-patch';
import { applyPlan } from '../../src/engine/apply.js';
import { diffSpecs, withoutIgnored } from '../../src/engine/diff.js';
import { fieldLabel } from '../../src/common/pointer.js';
import { computePlan, type PlanOptions } from '../../src/engine/plan.js';
import { Selection } from '../../src/engine/selection.js';
import { isOwned } from '../../src/engine/ownership.js';
import type { AdapterContext, KindAdapter, LiveObject, Reference } from '../../src/kinds/types.js';
import type { Resource } from '../../src/manifest/types.js';
import { resource } from '../helpers/resource.js';
import { RunScope } from '../../src/kinds/run-scope.js';

/**
 * An in-memory server with two kinds: Target (like a connector) and User (like a rule, whose
 * spec.uses names a Target). Writes are recorded so ordering can be asserted.
 */
function fakeWorld() {
  const store = new Map<string, LiveObject>();
  const writes: string[] = [];
  let failOn: string | undefined;
  const key = (kind: string, space: string, name: string) => `${kind}/${space}/${name}`;
  const make = (kind: string, refs: (spec: Record<string, any>) => Array<{ name: string; i: number }>): KindAdapter => ({
    kind,
    schema: `${kind}.schema.json`,
    area: { name: kind.toLowerCase(), defaults: { retryConflict: false } },
    setFields: ['/tags'],
    // spec.uses is refused by the server when the Target is missing (a rule action's connector);
    // spec.mentions is accepted unchecked (a rule's data_view_id, wire-facts §16 #8).
    references: (spec): Reference[] => [
      ...refs(spec).map(({ name, i }): Reference => ({ kind: 'Target', name, path: ['spec', 'uses', i], whenMissing: 'refused' })),
      ...(Array.isArray(spec.mentions) ? spec.mentions : []).map((name: string, i: number): Reference => ({ kind: 'Target', name, path: ['spec', 'mentions', i], whenMissing: 'accepted', missingEffect: 'it does nothing' })),
    ],
    async list(_ctx, space) {
      return [...store.values()].filter((o) => o.kind === kind && o.space === space);
    },
    normalizeDesired: (r) => ({ ...r.spec, tags: [...(r.spec.tags ?? [])].sort() }),
    normalizeLive: (l) => ({ ...l.body, tags: [...(l.body.tags ?? [])].sort() }),
    async create(_ctx, r) {
      if (failOn === r.name) throw new Error(`boom creating ${r.name}`);
      writes.push(`create ${kind}/${r.name}`);
      store.set(key(kind, r.space, r.name), { kind, space: r.space, name: r.name, body: structuredClone(r.spec), tags: r.spec.tags });
    },
    async update(_ctx, r) {
      writes.push(`update ${kind}/${r.name}`);
      store.set(key(kind, r.space, r.name), { kind, space: r.space, name: r.name, body: structuredClone(r.spec), tags: r.spec.tags });
    },
    async delete(_ctx, l) {
      writes.push(`delete ${kind}/${l.name}`);
      store.delete(key(kind, l.space, l.name));
    },
    toSpec: (l) => ({ spec: structuredClone(l.body) }),
  });
  const target = make('Target', () => []);
  const user = make('User', (spec) => (spec.uses ?? []).map((name: string, i: number) => ({ name, i })));
  const adapters = new Map([
    ['Target', target],
    ['User', user],
  ]);
  const ctx: AdapterContext = { api: { request: async () => { throw new Error('no HTTP in unit tests'); } }, log: () => {}, run: new RunScope() };
  return {
    store,
    writes,
    ctx,
    adapterFor: (k: string) => adapters.get(k),
    failOn: (name: string | undefined) => {
      failOn = name;
    },
    seed: (kind: string, name: string, body: Record<string, any>, extra: Partial<LiveObject> = {}) =>
      store.set(key(kind, 'default', name), { kind, space: 'default', name, body, tags: body.tags, ...extra }),
  };
}

function planOptions(world: ReturnType<typeof fakeWorld>, resources: Resource[], extra: Partial<PlanOptions> = {}): PlanOptions {
  return { resources, manage: [], adapterFor: world.adapterFor, ctx: world.ctx, ...extra };
}

describe('diff', () => {
  it('reports nested field changes with before and after', () => {
    const d = diffSpecs({ a: 1, b: { c: 'x' } }, { a: 2, b: { c: 'x' } });
    assert.equal(d.equal, false);
    assert.deepEqual(d.fields, [{ pointer: '/a', before: 1, after: 2, sensitive: false }]);
    assert.deepEqual(d.patch, [{ op: 'replace', path: '/a', value: 2 }]);
  });

  it('reports set-like arrays as members added and removed', () => {
    const d = diffSpecs({ tags: ['a', 'b', 'c'] }, { tags: ['d', 'a', 'b'] }, { setFields: ['/tags'] });
    assert.deepEqual(d.fields, [{ pointer: '/tags', added: ['d'], removed: ['c'], sensitive: false }]);
  });

  it('patches set-like arrays member by member, and the patch turns live into desired', () => {
    const live = Array.from({ length: 100_000 }, (_, i) => `v${String(i).padStart(6, '0')}`);
    const desired = [...live.filter((v) => v !== 'v000500'), 'v'].sort();
    const d = diffSpecs({ items: live, name: 'old' }, { items: desired, name: 'new' }, { setFields: ['/items'] });
    assert.deepEqual(d.patch, [
      { op: 'replace', path: '/name', value: 'new' },
      { op: 'remove', path: '/items/500' },
      { op: 'add', path: '/items/-', value: 'v' },
    ]);
    const patched = jsonpatch.applyPatch(structuredClone({ items: live, name: 'old' }), d.patch).newDocument;
    assert.deepEqual([...patched.items].sort(), desired);
    assert.equal(patched.name, 'new');
  });

  it('masks fields that came from secrets', () => {
    const d = diffSpecs({ config: { url: 'http://old' } }, { config: { url: 'http://new-secret' } }, { secretPointers: new Set(['/config/url']) });
    assert.equal(d.fields[0].before, '(sensitive)');
    assert.equal(d.fields[0].after, '(sensitive)');
    assert.ok(!JSON.stringify(d.patch).includes('new-secret'));
  });

  it('drops metadata.ignore pointers from both sides', () => {
    assert.deepEqual(withoutIgnored({ enabled: true, tags: ['a'], x: { y: 1, z: 2 } }, ['/spec/enabled', '/spec/x/z']), { tags: ['a'], x: { y: 1 } });
  });

  it('labels pointers the way users write fields', () => {
    assert.equal(fieldLabel('/actions/0/params/message'), 'spec.actions[0].params.message');
    assert.equal(fieldLabel('/shards/policy~1a'), 'spec.shards["policy/a"]');
  });
});

describe('ownership', () => {
  const live = (name: string, tags: string[] = [], readOnly?: string): LiveObject => ({ kind: 'Rule', space: 'default', name, body: {}, tags, readOnly });
  it('owns only what a scope covers: kind, space, name prefix, tags, names', () => {
    assert.equal(isOwned(live('soc-1'), [{ kind: 'Rule' }]), true);
    assert.equal(isOwned(live('soc-1'), [{ kind: 'Connector' }]), false);
    assert.equal(isOwned(live('soc-1'), [{ kind: 'Rule', spaces: ['other'] }]), false);
    assert.equal(isOwned(live('x-1'), [{ kind: 'Rule', selector: { namePrefix: 'soc-' } }]), false);
    assert.equal(isOwned(live('soc-1', ['a']), [{ kind: 'Rule', selector: { tags: ['a', 'b'] } }]), false);
    assert.equal(isOwned(live('soc-1', ['a', 'b']), [{ kind: 'Rule', selector: { tags: ['a', 'b'] } }]), true);
    assert.equal(isOwned(live('soc-2'), [{ kind: 'Rule', selector: { names: ['soc-1'] } }]), false);
  });
  it('never owns read-only objects', () => {
    assert.equal(isOwned(live('prebuilt', [], 'prebuilt'), [{ kind: 'Rule' }]), false);
  });
  it('never owns what the server makes for itself (serverOwned), though a scope covers it', () => {
    assert.equal(isOwned({ ...live('elastic_agent'), kind: 'IntegrationPackage', serverOwned: 'Fleet installs it' }, [{ kind: 'IntegrationPackage' }]), false);
  });
});

describe('plan and apply', () => {
  it('creates dependencies first and converges (apply then plan is empty)', async () => {
    const world = fakeWorld();
    const resources = [resource('User', 'u1', { uses: ['t1'], tags: ['b', 'a'] }), resource('Target', 't1', { x: 1 })];
    const plan = await computePlan(planOptions(world, resources));
    assert.deepEqual(plan.summary, { create: 2, update: 0, delete: 0, unchanged: 0, unmanaged: 0 });
    const target = plan.changes.find((c) => c.kind === 'Target')!;
    const user = plan.changes.find((c) => c.kind === 'User')!;
    assert.ok(target.wave < user.wave);
    assert.deepEqual(user.dependsOn, ['Target/default/t1']);
    const report = await applyPlan(plan.changes, { ctx: world.ctx, adapterFor: world.adapterFor, concurrency: 4 });
    assert.equal(report.done, 2);
    assert.deepEqual(world.writes, ['create Target/t1', 'create User/u1']);
    const again = await computePlan(planOptions(world, resources));
    assert.equal(again.changes.length, 0);
    assert.equal(again.summary.unchanged, 2);
  });

  it('deletes only owned objects, dependents first, after every create and update', async () => {
    const world = fakeWorld();
    world.seed('Target', 'owned-t', { x: 1 });
    world.seed('User', 'owned-u', { uses: ['owned-t'] });
    world.seed('User', 'foreign', { uses: [] });
    const plan = await computePlan(planOptions(world, [resource('Target', 'kept', { x: 2 })], { manage: [{ kind: 'Target' }, { kind: 'User', selector: { namePrefix: 'owned-' } }] }));
    assert.deepEqual(plan.summary, { create: 1, update: 0, delete: 2, unchanged: 0, unmanaged: 1 });
    await applyPlan(plan.changes, { ctx: world.ctx, adapterFor: world.adapterFor, concurrency: 4 });
    assert.deepEqual(world.writes, ['create Target/kept', 'delete User/owned-u', 'delete Target/owned-t']);
    assert.ok(world.store.has('User/default/foreign'));
  });

  it('without manage scopes nothing is deleted', async () => {
    const world = fakeWorld();
    world.seed('Target', 'stray', { x: 1 });
    const plan = await computePlan(planOptions(world, [resource('Target', 'other', { x: 1 })]));
    assert.equal(plan.summary.delete, 0);
    assert.equal(plan.summary.unmanaged, 1);
  });

  it('skips what depends on a failed change, carries on with the rest, and a re-run finishes', async () => {
    const world = fakeWorld();
    const resources = [resource('Target', 'bad', {}), resource('User', 'needs-bad', { uses: ['bad'] }), resource('Target', 'fine', {})];
    world.failOn('bad');
    const plan = await computePlan(planOptions(world, resources));
    const report = await applyPlan(plan.changes, { ctx: world.ctx, adapterFor: world.adapterFor, concurrency: 2 });
    assert.deepEqual({ done: report.done, failed: report.failed, skipped: report.skipped }, { done: 1, failed: 1, skipped: 1 });
    assert.equal(report.results.find((r) => r.change.name === 'needs-bad')!.blockedBy, 'Target/default/bad');
    world.failOn(undefined);
    const rerun = await computePlan(planOptions(world, resources));
    assert.deepEqual(rerun.changes.map((c) => `${c.action} ${c.name}`), ['create bad', 'create needs-bad']);
    await applyPlan(rerun.changes, { ctx: world.ctx, adapterFor: world.adapterFor, concurrency: 2 });
    assert.equal((await computePlan(planOptions(world, resources))).changes.length, 0);
    assert.equal([...world.store.keys()].length, 3);
  });

  it('shows an update with field changes, honouring metadata.ignore', async () => {
    const world = fakeWorld();
    world.seed('Target', 't', { x: 1, enabled: false, tags: ['a'] });
    const plan = await computePlan(planOptions(world, [resource('Target', 't', { x: 2, enabled: true, tags: ['a', 'b'] }, { ignore: ['/spec/enabled'] })]));
    assert.equal(plan.summary.update, 1);
    assert.deepEqual(
      plan.changes[0].fields.map((f) => f.pointer),
      ['/tags', '/x'],
    );
  });

  it('refuses to write read-only objects and reports live identity clashes', async () => {
    const world = fakeWorld();
    world.seed('Target', 'prebuilt', {}, { readOnly: 'prebuilt' });
    world.store.set('dup-1', { kind: 'Target', space: 'default', name: 'dup', serverId: 'id-1', body: {} });
    world.store.set('dup-2', { kind: 'Target', space: 'default', name: 'dup', serverId: 'id-2', body: {} });
    const plan = await computePlan(planOptions(world, [resource('Target', 'prebuilt', { x: 1 }), resource('Target', 'dup', {})]));
    assert.equal(plan.changes.length, 0);
    assert.equal(plan.errors.length, 2);
    assert.match(plan.errors[0].message, /prebuilt/);
    assert.match(plan.errors[1].message, /2 live objects share this identity.*id-1, id-2/);
  });

  it('reports a reference to an object that exists nowhere, and a cycle', async () => {
    const world = fakeWorld();
    const missing = await computePlan(planOptions(world, [resource('User', 'u', { uses: ['ghost'] }), resource('Target', 't', {})]));
    assert.match(missing.errors[0].message, /spec\.uses\[0\] names Target "ghost", which neither the manifests nor the server hold; the server refuses the write/);
  });

  it('warns of an accepted reference to an object that exists nowhere, or refuses it under references.missing: error', async () => {
    const world = fakeWorld();
    world.seed('Target', 'real', {});
    const manifests = () => [resource('User', 'u', { mentions: ['real', 'ghost'] })];
    const lenient = await computePlan(planOptions(world, manifests()));
    assert.deepEqual(lenient.errors, []);
    assert.deepEqual(lenient.warnings?.map((w) => w.message), ['spec.mentions[1] names Target "ghost", which neither the manifests nor the server hold; the server accepts this, but it does nothing']);
    assert.deepEqual(lenient.changes.map((c) => c.id), ['User/default/u']);
    const strict = await computePlan({ ...planOptions(world, manifests()), missingReferences: 'error' });
    assert.deepEqual(strict.warnings, []);
    assert.deepEqual(strict.errors.map((e) => e.message), ['spec.mentions[1] names Target "ghost", which neither the manifests nor the server hold (svcform.yaml references.missing: error)']);
  });

  it('checks a reference against the server even when no manifest of the referenced kind exists', async () => {
    const world = fakeWorld();
    world.seed('Target', 'real', {});
    const plan = await computePlan(planOptions(world, [resource('User', 'u', { uses: ['real', 'ghost'] })]));
    assert.equal(plan.errors.length, 1, JSON.stringify(plan.errors));
    assert.match(plan.errors[0].message, /names Target "ghost"/);
  });

  it('--select keeps the selected change and what it needs', async () => {
    const world = fakeWorld();
    const resources = [resource('User', 'u1', { uses: ['t1'] }), resource('Target', 't1', {}), resource('Target', 't2', {})];
    const plan = await computePlan(planOptions(world, resources, { select: new Selection(['User/u*']) }));
    assert.deepEqual(plan.changes.map((c) => c.id).sort(), ['Target/default/t1', 'User/default/u1']);
  });

  it('the live fingerprint changes when the server changes', async () => {
    const world = fakeWorld();
    const resources = [resource('Target', 't', { x: 1 })];
    const a = await computePlan(planOptions(world, resources));
    const b = await computePlan(planOptions(world, resources));
    assert.equal(a.liveFingerprint, b.liveFingerprint);
    world.seed('Target', 'other', { y: 1 });
    const c = await computePlan(planOptions(world, resources));
    assert.notEqual(a.liveFingerprint, c.liveFingerprint);
  });
});
