/**
 * `npm run bench:watchlist`: a Watchlist of 100,000 members (an items_file of EUIDs beside the
 * manifest, with the space's EntityStore), applied onto an empty emulator and then planned by the
 * real CLI (the set-plan.ts harness). Watchlists hold only entities the store knows, so the run
 * first adds the members as entities (`POST /__emulator/entities`: the emulator has no logs to
 * extract them from). The goal is plan after apply under 2 s (issue 32); the members are written
 * 1,000 an assign call and read in one walk of the store's entities, 10,000 a page.
 *
 *   node dist/bench/watchlist.js [--members N] [--latency MS] [--runs N]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSetBench } from './set-plan.js';
import { control, runMain } from './wire.js';

const CHANGED = 100;
const member = (i: number) => `user:member-${String(i).padStart(6, '0')}`;

/** `changed` members swapped for others the store also holds. */
function writeWatchlist(dir: string, members: number, changed: number): void {
  const lines: string[] = [];
  for (let i = 0; i < members; i++) lines.push(i < changed ? member(members + i) : member(i));
  writeFileSync(join(dir, 'members.txt'), lines.join('\n') + '\n');
  writeFileSync(join(dir, 'entity-store.yaml'), ['apiVersion: svcform/v1', 'kind: EntityStore', 'metadata:', '  name: entity-store', 'spec:', '  entity_types: [user]', ''].join('\n'));
  writeFileSync(join(dir, 'watchlist.yaml'), ['apiVersion: svcform/v1', 'kind: Watchlist', 'metadata:', '  name: Bench members', 'spec:', '  risk_modifier: 1.5', '  items_file: members.txt', ''].join('\n'));
}

async function addEntities(url: string, members: number): Promise<void> {
  const total = members + CHANGED;
  for (let from = 0; from < total; from += 10_000) {
    const entities = [];
    for (let i = from; i < Math.min(total, from + 10_000); i++) entities.push({ type: 'user', name: member(i).slice('user:'.length) });
    await control(url, 'POST', '/entities', { entities });
  }
}

runMain(() =>
  runSetBench({
    sizeOption: 'members',
    defaultSize: 100_000,
    goalSeconds: 2,
    write: writeWatchlist,
    prepare: addEntities,
    applyNote: (members) => `${Math.ceil(members / 1000)} assign calls`,
    change: { size: CHANGED, what: `swapping ${CHANGED} members`, note: 'one unassign and one assign call' },
  }),
);
