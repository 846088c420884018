import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { realisticRule } from '../../bench/realistic.js';
import { loadFiles } from '../../src/manifest/files.js';
import { packageRoot, prebuilt, schemaValidator } from '../../src/manifest/validators.js';

/**
 * The schemas compiled once at build time (scripts/build-validators.mjs) are the ones a run uses,
 * and they judge every document exactly as ajv compiling the schema at run time does.
 */

const SCHEMAS = readdirSync(join(packageRoot(), 'schemas')).filter((f) => f.endsWith('.schema.json'));

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? yamlFiles(full) : /\.ya?ml$/.test(name) ? [full] : [];
  });
}

const errorsOf = (fn: ReturnType<typeof schemaValidator>, value: unknown) => (fn(value) ? [] : (fn.errors ?? []).map(({ instancePath, schemaPath, keyword, params, message }) => ({ instancePath, schemaPath, keyword, params, message })));

describe('schemas compiled at build time', () => {
  it('exist for every schema and are the validators a run uses', () => {
    for (const file of SCHEMAS) {
      const built = schemaValidator(file);
      assert.notEqual(built, schemaValidator(file, { prebuilt: false }), `${file}: the build's code, not a run-time compile`);
      assert.ok(built.schema, `${file}: carries its schema for the messages`);
    }
  });

  it('give the same verdict and the same errors as a run-time compile, on every fixture and on generated rules', () => {
    const docs = loadFiles([...yamlFiles(join(packageRoot(), 'test/fixtures')), ...yamlFiles(join(packageRoot(), 'examples'))]).docs.map((d) => d.value as any);
    docs.push(...Array.from({ length: 50 }, (_, i) => realisticRule(i)));
    docs.push({ ...realisticRule(1), spec: { ...realisticRule(1).spec, severity: 'urgent', unknown_field: 1, risk_score: 'high' } });
    let compared = 0;
    for (const doc of docs) {
      const file = `${doc?.kind}.schema.json`;
      if (!SCHEMAS.includes(file)) continue;
      assert.deepEqual(errorsOf(schemaValidator(file), doc), errorsOf(schemaValidator(file, { prebuilt: false }), doc), `${file}: ${JSON.stringify(doc).slice(0, 200)}`);
      compared += 1;
    }
    assert.ok(compared > 60, `${compared} documents compared`);
  });

  it('are not used once the schema text differs from the one they were made from', () => {
    // Inside the package, so that the code's require() calls find the dependencies.
    const dir = mkdtempSync(join(packageRoot(), 'dist', 'validators-test-'));
    try {
      const text = readFileSync(join(packageRoot(), 'schemas', 'ValueList.schema.json'), 'utf8');
      const code = readFileSync(join(packageRoot(), 'dist/src/manifest/validators/ValueList.cjs'), 'utf8');
      writeFileSync(join(dir, 'ValueList.cjs'), code);
      assert.ok(prebuilt('ValueList.schema.json', text, dir));
      assert.equal(prebuilt('ValueList.schema.json', text.replace('"description"', '"title"'), dir), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
