import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Plan, PlannedChange } from '../../src/engine/plan.js';
import { changeDigest, unreviewedChanges } from '../../src/cli/reviewed-plan.js';
import { changeToJson } from '../../src/report/plan-json.js';
import { RunScope } from '../../src/kinds/run-scope.js';
import { resource } from '../helpers/resource.js';

const rename = (name: string, to: string): PlannedChange => ({
  id: `Connector/default/${name}`,
  kind: 'Connector',
  space: 'default',
  name,
  action: 'update',
  fields: [{ pointer: '/name', before: name, after: to, sensitive: false }],
  patch: [{ op: 'replace', path: '/name', value: to }],
  dependsOn: [],
  wave: 0,
  resource: resource('Connector', name, { name: to, connector_type_id: '.server-log' }),
  live: { kind: 'Connector', space: 'default', name, body: { name, connector_type_id: '.server-log' } },
  ignore: [],
});

/** A plan whose fingerprints cannot be read: hashing every live object and manifest is the cost avoided. */
function planOf(changes: PlannedChange[]): Plan {
  const unread = () => assert.fail('the fingerprints were read');
  return Object.defineProperties(
    { changes, unmanaged: [], errors: [], warnings: [], notices: [], summary: { create: 0, update: changes.length, delete: 0, unchanged: 0, unmanaged: 0 } },
    { liveFingerprint: { get: unread, enumerable: true }, desiredFingerprint: { get: unread, enumerable: true } },
  ) as unknown as Plan;
}

describe('apply --if-matches', () => {
  it('compares the changes with the reviewed ones without reading the fingerprints', () => {
    const run = new RunScope();
    const seen = rename('soc-a', 'soc-b');
    const reviewed = [{ file: 'plan.json', digests: new Set([changeDigest(changeToJson(seen, run))]) }];
    assert.deepEqual(unreviewedChanges(planOf([rename('soc-a', 'soc-b')]), reviewed, run), []);
    const other = unreviewedChanges(planOf([rename('soc-a', 'soc-b'), rename('soc-c', 'soc-d')]), reviewed, run);
    assert.deepEqual(other.map((c) => c.name), ['soc-c']);
  });
});
