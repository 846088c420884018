/**
 * `npm run bench:lists`: a value list of a million values (an items_file beside its manifest),
 * applied onto an empty emulator (in this process, with latency), then planned by the real CLI in
 * a child process. The goal is plan after apply under 3 s; the run also shows what removing 100
 * values costs (one delete per value: the lists API has no bulk delete).
 *
 *   node dist/bench/value-list.js [--values N] [--latency MS] [--runs N]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSetBench } from './set-plan.js';
import { runMain } from './wire.js';

function ip(i: number): string {
  return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
}

function writeList(dir: string, values: number, skip: number): void {
  const lines: string[] = [];
  for (let i = skip; i < values; i++) lines.push(i < 16_777_216 ? ip(i) : `11.0.0.${i}`);
  writeFileSync(join(dir, 'feed.txt'), lines.join('\n') + '\n');
  writeFileSync(
    join(dir, 'list.yaml'),
    ['apiVersion: svcform/v1', 'kind: ValueList', 'metadata:', '  name: threat-feed', 'spec:', '  name: Threat feed', '  description: Nightly feed', '  type: ip', '  items_file: feed.txt', ''].join('\n'),
  );
}

runMain(() =>
  runSetBench({
    sizeOption: 'values',
    defaultSize: 1_000_000,
    goalSeconds: 3,
    write: writeList,
    applyNote: () => 'the items import',
    change: { size: 100, what: 'removing 100 values', note: '100 DELETE requests: the API deletes items one at a time' },
  }),
);
