/**
 * `npm run bench:criticality`: 100,000 asset criticality records (a records_file beside the
 * manifest), applied onto an empty emulator (in this process, with latency), then planned by the
 * real CLI in a child process. The goal is plan after apply under 2 s (issue 32). The listing is
 * past the search window, so the plan reads the records in id_value windows of 10,000, ten pages
 * of 1,000 at once each; the run also shows what changing 100 levels costs (one bulk call).
 *
 *   node dist/bench/asset-criticality.js [--records N] [--latency MS] [--runs N]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSetBench } from './set-plan.js';
import { runMain } from './wire.js';
const LEVELS = ['low_impact', 'medium_impact', 'high_impact', 'extreme_impact'];

function writeRecords(dir: string, records: number, changed: number): void {
  const lines: string[] = [];
  for (let i = 0; i < records; i++) lines.push(`host-${String(i).padStart(6, '0')}.corp.example,${LEVELS[(i + (i < changed ? 1 : 0)) % 4]}`);
  writeFileSync(join(dir, 'hosts.csv'), lines.join('\n') + '\n');
  writeFileSync(join(dir, 'criticality.yaml'), ['apiVersion: svcform/v1', 'kind: AssetCriticality', 'metadata:', '  name: host.name', 'spec:', '  records_file: hosts.csv', ''].join('\n'));
}

runMain(() =>
  runSetBench({
    sizeOption: 'records',
    defaultSize: 100_000,
    goalSeconds: 2,
    write: writeRecords,
    applyNote: (records) => `${Math.ceil(records / 1000)} bulk calls`,
    change: { size: 100, what: 'changing 100 levels', note: 'one bulk call' },
  }),
);
