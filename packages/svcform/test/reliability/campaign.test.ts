import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCampaign, type RunResult } from './campaign.js';
import { HOSTED_ONLY, NEVER_DELETED } from './campaign-workload.js';
import { knownKinds } from '../../src/kinds/registry.js';

/** What a replay must repeat: every figure of the run, phase by phase. */
const figures = (r: RunResult) => ({ faults: r.faults, failedChanges: r.failedChanges, applies: r.applies, phases: r.phases, notes: r.notes });

describe('fault campaign (npm run campaign runs more; these are the small ones)', () => {
  it('creates, updates and deletes every kind under ~10% injected faults with nothing duplicated, lost or misreported', async () => {
    const [r] = await runCampaign({ runs: 1, seed: 7, copies: 3, rate: 0.1 });
    assert.ok(r.converged, r.notes.join('\n'));
    assert.equal(r.duplicated, 0, r.notes.join('\n'));
    assert.equal(r.lost, 0, r.notes.join('\n'));
    assert.equal(r.misreported, 0, r.notes.join('\n'));
    // Every registered kind but the hosted-only ones: the examples hold one of each, and this holds them to it.
    const all = knownKinds().filter((k) => !HOSTED_ONLY.includes(k)).length;
    assert.equal(r.kinds, all);
    const kinds = (phase: string) => Object.keys(r.phases.find((p) => p.phase === phase)?.planned ?? {}).length;
    assert.deepEqual([kinds('create'), kinds('update'), kinds('delete')], [all, all, all - NEVER_DELETED.length], 'every kind created and updated, every deletable kind deleted');
    assert.ok(r.faults > 0);
  });

  it('replays a seed exactly, though each phase starts with two applies at once', async () => {
    const options = { runs: 1, seed: 21, copies: 1, rate: 0.4 };
    const [first] = await runCampaign(options);
    const [again] = await runCampaign(options);
    assert.ok(first.faults > 20, `faults were injected (${first.faults})`);
    assert.deepEqual(figures(again), figures(first));
  });
});
