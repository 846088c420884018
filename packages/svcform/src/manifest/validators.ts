import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

/**
 * The validation function of each schema of schemas/. The build compiles them once into standalone
 * code (scripts/build-validators.mjs, dist/src/manifest/validators/); that code is used while it
 * was made from the very schema text found now. Otherwise, and when running without a build, ajv
 * compiles the schema here with the same options, which costs far more than loading the code.
 */

const require = createRequire(import.meta.url);
const HERE = dirname(fileURLToPath(import.meta.url));

/** The package root (where schemas/ lives), found from this file whether run from src or dist. */
export function packageRoot(): string {
  let dir = HERE;
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schemas'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('cannot find the svcform package root (schemas/ folder)');
}

/** Whether some string length limit of the schema depends on how characters are counted. */
function countsCodePoints(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(countsCodePoints);
  if (!node || typeof node !== 'object') return false;
  const o = node as Record<string, unknown>;
  if (o.maxLength !== undefined || (typeof o.minLength === 'number' && o.minLength > 1)) return true;
  return Object.values(o).some(countsCodePoints);
}

/**
 * The ajv options every schema is compiled with (here and in scripts/build-validators.mjs). JSON
 * Schema lengths count code points, which ajv does by walking each string; where the only limit
 * is "not empty" (minLength 1) the UTF-16 length gives the same answer without reading a 6 KB
 * investigation guide character by character.
 */
export function ajvOptions(schema: unknown): Record<string, unknown> {
  const options: Record<string, unknown> = { allErrors: true, verbose: true, strict: false, allowUnionTypes: true };
  if (!countsCodePoints(schema)) Object.assign(options, { unicode: false, logger: QUIET_ABOUT_UNICODE });
  return options;
}

/** ajv calls the `unicode` option deprecated (while it still honours it): that notice is not for users. */
const QUIET_ABOUT_UNICODE = {
  log: console.log,
  warn: (...args: unknown[]) => {
    if (!/^DEPRECATED: option unicode/.test(String(args[0]))) console.warn(...args);
  },
  error: console.error,
};

const ajvs = new Map<string, Ajv2020>();
const compiled = new Map<string, ValidateFunction>();

function compileAtRunTime(schema: object): ValidateFunction {
  const options = ajvOptions(schema);
  const key = String(options.unicode);
  let ajv = ajvs.get(key);
  if (!ajv) {
    const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const { formats } = require('./formats.cjs') as typeof import('./formats.cjs');
    ajv = new Ajv({ ...options, formats });
    ajvs.set(key, ajv);
  }
  return ajv.compile(schema);
}

/** The build's code for `file` in `dir`, if there is some made from `text`. */
export function prebuilt(file: string, text: string, dir = join(HERE, 'validators')): ValidateFunction | undefined {
  const path = join(dir, file.replace(/\.schema\.json$/, '.cjs'));
  if (!existsSync(path)) return undefined;
  const mod = require(path) as ValidateFunction & { schemaHash?: string };
  return mod.schemaHash === createHash('sha256').update(text).digest('hex') ? mod : undefined;
}

export function schemaValidator(file: string, options: { prebuilt?: boolean } = {}): ValidateFunction {
  const key = options.prebuilt === false ? `${file}\u0000runtime` : file;
  let fn = compiled.get(key);
  if (!fn) {
    const text = readFileSync(join(packageRoot(), 'schemas', file), 'utf8');
    const schema = JSON.parse(text);
    fn = (options.prebuilt !== false && prebuilt(file, text)) || compileAtRunTime(schema);
    // Messages read the root schema (describeSchemaErrors); standalone code does not carry it.
    if (!fn.schema) (fn as { schema: unknown }).schema = schema;
    compiled.set(key, fn);
  }
  return fn;
}
