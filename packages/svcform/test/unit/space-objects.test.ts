import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpaceDeletes, linkSpaceDependencies, spacesToDelete, type SpaceContents } from '../../src/engine/space-objects.js';
import type { PlanError, PlannedChange, PlanNotice } from '../../src/engine/changes.js';
import type { KindAdapter, LiveObject } from '../../src/kinds/types.js';

/** Only `containsSpaces` matters here. */
const adapterFor = (kind: string) => (kind === 'Space' ? ({ containsSpaces: true } as KindAdapter) : ({} as KindAdapter));
const live = (kind: string, space: string, name: string, extra: Partial<LiveObject> = {}): LiveObject => ({ kind, space, name, body: {}, ...extra });
const change = (action: 'create' | 'update' | 'delete', kind: string, space: string, name: string): PlannedChange =>
  ({ id: `${kind}/${space}/${name}`, action, kind, space, name, fields: [], patch: [], dependsOn: [], wave: 0, live: live(kind, space, name) }) as unknown as PlannedChange;

describe('spaces as objects (engine/space-objects.ts)', () => {
  it('orders writes in a created space after it, and a deleted space after the deletes in it', () => {
    const created = change('create', 'Space', 'default', 'soc');
    const hook = change('create', 'Connector', 'soc', 'hook');
    const elsewhere = change('create', 'Connector', 'default', 'other');
    const doomed = change('delete', 'Space', 'default', 'old');
    const inOld = change('delete', 'Rule', 'old', 'r1');
    linkSpaceDependencies([created, hook, elsewhere, doomed, inOld], adapterFor);
    assert.deepEqual(hook.dependsOn, ['Space/default/soc']);
    assert.deepEqual(elsewhere.dependsOn, []);
    assert.deepEqual(doomed.dependsOn, ['Rule/old/r1']);
    assert.deepEqual(inOld.dependsOn, []);
  });

  it('a space is to be deleted only when a scope owns it and no manifest declares it', () => {
    const objects = [[live('Space', 'default', 'a'), live('Space', 'default', 'b'), live('Connector', 'default', 'c')]];
    const manage = [{ kind: 'Space' }, { kind: 'Connector' }];
    assert.deepEqual(spacesToDelete(objects, new Set(['Space/default/b']), manage, adapterFor), ['a']);
    assert.deepEqual(spacesToDelete(objects, new Set(), [{ kind: 'Connector' }], adapterFor), []);
  });

  it('names what is in the space (ten per kind), counts built-ins, names kinds it could not read, and refuses without approval', () => {
    const rules = Array.from({ length: 12 }, (_, i) => live('Rule', 'old', `r${String(i).padStart(2, '0')}`));
    const contents: SpaceContents = { objects: [...rules, live('AgentTool', 'old', 'platform.x', { readOnly: 'built-in tool' })], unread: [{ kind: 'PackagePolicy', error: new Error('403') }] };
    const errors: PlanError[] = [];
    const notices: PlanNotice[] = [];
    checkSpaceDeletes([change('delete', 'Space', 'default', 'old')], () => contents, [], adapterFor, errors, notices);
    assert.deepEqual(notices, []);
    assert.equal(errors.length, 1);
    assert.equal(
      errors[0].message,
      'deleting space old deletes everything in it, 12 objects svcform sees: Rule 12 (r00, r01, r02, r03, r04, r05, r06, r07, r08, r09, and 2 more) (besides 1 built-in or managed object); not readable there: PackagePolicy. A manage scope alone never deletes a space: pass --allow-space-delete old to approve it',
    );

    const approved: PlanError[] = [];
    const shown: PlanNotice[] = [];
    const doomed = change('delete', 'Space', 'default', 'old');
    checkSpaceDeletes([doomed], () => ({ objects: [], unread: [] }), ['old'], adapterFor, approved, shown);
    assert.deepEqual(approved, []);
    assert.deepEqual(shown, [{ subject: 'Space/old', message: 'deleting space old (approved with --allow-space-delete) deletes everything in it, no object svcform manages or could manage' }]);
    assert.equal(doomed.reason, 'deletes everything in the space');
  });
});
