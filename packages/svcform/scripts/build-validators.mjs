// Compiles every schema of schemas/ into standalone validation code once, at build time (ajv
// "standalone" mode), so that a run loads a ready function instead of compiling the schemas:
// dist/src/manifest/validators/<Kind>.cjs. Each file carries the SHA-256 of the schema text it was
// made from; src/manifest/validators.ts uses it only while that still matches, and compiles at run
// time otherwise. It runs after tsc: the ajv options come from the compiled validators.ts.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const { Ajv2020 } = require('ajv/dist/2020.js');
const standaloneCode = require('ajv/dist/standalone').default;
const { formats } = require('../dist/src/manifest/formats.cjs');
const { _ } = require('ajv');
const { ajvOptions } = await import('../dist/src/manifest/validators.js');

const out = 'dist/src/manifest/validators';
mkdirSync(out, { recursive: true });
for (const file of readdirSync('schemas').filter((f) => f.endsWith('.schema.json')).sort()) {
  const text = readFileSync(join('schemas', file), 'utf8');
  const schema = JSON.parse(text);
  // The generated code requires its formats from the one module that defines them (formats.cts).
  const ajv = new Ajv2020({ ...ajvOptions(schema), formats, code: { source: true, formats: _`require("../formats.cjs").formats` } });
  const code = standaloneCode(ajv, ajv.compile(schema));
  const hash = createHash('sha256').update(text).digest('hex');
  writeFileSync(join(out, file.replace(/\.schema\.json$/, '.cjs')), `${code}\nmodule.exports.schemaHash = ${JSON.stringify(hash)};\n`);
}
