#!/usr/bin/env node
// Writes data/ecs-known-fields.txt, the field names a rule query may name as ECS fields, from an
// unpacked @elastic/ecs package (its EcsFlat table):
//
//   npm pack @elastic/ecs@9.4.0 && tar xzf elastic-ecs-9.4.0.tgz && node scripts/ecs-known-fields.mjs package
//
// Unlike data/ecs-fields.txt (what the server's ecsFieldMap counts as ECS for required_fields),
// this keeps every field a source document may carry under ECS: constant_keyword fields such as
// data_stream.dataset, nested and flattened fields, experimental fields, and multi-fields such as
// process.command_line.text. An object, nested or flattened field whose children ECS does not
// list takes any child: it is written `name.*`.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/ecs-known-fields.mjs UNPACKED_ELASTIC_ECS_PACKAGE');
  process.exit(2);
}
const require = createRequire(join(resolve(dir), 'package.json'));
const { version } = require('./package.json');
const flat = require('./build/commonjs/index.js').EcsFlat;
const names = Object.keys(flat);
const lines = new Set();
for (const name of names) {
  const field = flat[name];
  lines.add(name);
  for (const multi of field.multi_fields ?? []) lines.add(multi.flat_name);
  const container = ['object', 'flattened', 'nested'].includes(field.type);
  if (container && !names.some((other) => other.startsWith(`${name}.`))) lines.add(`${name}.*`);
}
const header = [
  `# Field names a source document may carry under ECS ${version} (@elastic/ecs EcsFlat), multi-fields`,
  '# included; `name.*` takes any child. Made by scripts/ecs-known-fields.mjs; one name per line.',
];
const sorted = [...lines].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
writeFileSync(new URL('../data/ecs-known-fields.txt', import.meta.url), `${[...header, ...sorted].join('\n')}\n`);
console.log(`wrote ${sorted.length} names from @elastic/ecs ${version}`);
