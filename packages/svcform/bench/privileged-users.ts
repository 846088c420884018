/**
 * `npm run bench:privmon`: PrivilegedUserMonitoring with N monitored users from an items_file,
 * written in one CSV upload and read back in one list search, applied onto an empty emulator and
 * then planned by the real CLI (the set-plan.ts harness). The default N is 10,000, the real
 * server's limit (maxPrivilegedUsersAllowed, and the list route's one search of 10,000): 100,000
 * monitored users cannot be held by the real server, and svcform refuses such a set.
 *
 *   node dist/bench/privileged-users.js [--users N] [--latency MS] [--runs N]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSetBench } from './set-plan.js';
import { runMain } from './wire.js';

/** `changed` users renamed (one upload of the whole set). */
function writeUsers(dir: string, users: number, changed: number): void {
  const lines: string[] = [];
  for (let i = 0; i < users; i++) lines.push(`${i < changed ? 'renamed' : 'user'}-${String(i).padStart(6, '0')}`);
  writeFileSync(join(dir, 'users.txt'), lines.join('\n') + '\n');
  writeFileSync(join(dir, 'privmon.yaml'), ['apiVersion: svcform/v1', 'kind: PrivilegedUserMonitoring', 'metadata:', '  name: privileged-user-monitoring', 'spec:', '  items_file: users.txt', ''].join('\n'));
}

runMain(() =>
  runSetBench({
    sizeOption: 'users',
    defaultSize: 10_000,
    goalSeconds: 2,
    write: writeUsers,
    applyNote: () => 'one CSV upload',
    change: { size: 100, what: 'renaming 100 users', note: 'one CSV upload' },
  }),
);
