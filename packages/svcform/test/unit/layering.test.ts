import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The workspace is three packages (docs/architecture.md): @svcform/query imports no other package;
 * @svcform/emulator imports only the query languages (it states its own copies of the facts it
 * serves, so svcform and the emulator never agree by construction); svcform imports the emulator
 * only to run it (`--url embedded`, `svcform emulator`) and in tests. Inside svcform the folders of
 * src/ form layers: each may import only the ones below it. manifest/ knows kinds only through the
 * KindCatalog interface it defines; the engine never reads configuration files.
 */
const WORKSPACE = resolve('../..');
const PACKAGES: Record<string, { dir: string; imports: string[] }> = {
  '@svcform/query': { dir: 'packages/query', imports: [] },
  '@svcform/emulator': { dir: 'packages/emulator', imports: ['@svcform/query'] },
  svcform: { dir: 'packages/svcform', imports: ['@svcform/query', '@svcform/emulator'] },
};
/** The only svcform modules that may import the emulator: the two ways a user runs it. */
const RUNS_THE_EMULATOR = ['src/cli/emulator.ts', 'src/cli/context.ts'];
const LAYERS: Record<string, string[]> = {
  common: [],
  client: ['common'],
  manifest: ['common'],
  kinds: ['common', 'client', 'manifest'],
  engine: ['common', 'client', 'manifest', 'kinds'],
  report: ['common', 'manifest', 'kinds', 'engine'],
  cli: ['common', 'client', 'manifest', 'kinds', 'engine', 'report'],
};
const SPECIFIER = /(?:from|import)\s*\(?\s*'([^']+)'/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') && !full.endsWith('.d.ts') ? [full] : [];
  });
}

/** The workspace package an import names (`@svcform/query/x.js` names @svcform/query), if any. */
function packageNamed(specifier: string): string | undefined {
  return Object.keys(PACKAGES).find((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/** The source file an import resolves to inside the workspace, if it is one. */
function resolveImport(file: string, specifier: string): string | undefined {
  const name = packageNamed(specifier);
  if (name) return join(WORKSPACE, PACKAGES[name].dir, 'src', specifier.slice(name.length + 1).replace(/\.js$/, '.ts'));
  if (specifier.startsWith('.')) return resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
  return undefined;
}

/** What is wrong with the imports of one file of package `name`. */
function boundaryProblems(name: string, file: string, text: string): string[] {
  const root = join(WORKSPACE, PACKAGES[name].dir);
  const at = relative(WORKSPACE, file);
  const inSrc = relative(root, file).startsWith(`src${sep}`);
  const wrong: string[] = [];
  for (const [, specifier] of text.matchAll(SPECIFIER)) {
    const named = packageNamed(specifier);
    if (named && named !== name && !PACKAGES[name].imports.includes(named)) wrong.push(`${at} imports ${specifier}`);
    else if (named === '@svcform/emulator' && inSrc && !RUNS_THE_EMULATOR.includes(relative(root, file))) wrong.push(`${at} imports ${specifier}: only ${RUNS_THE_EMULATOR.join(' and ')} run the emulator`);
    if (specifier.startsWith('.') && relative(root, resolve(dirname(file), specifier)).startsWith('..')) wrong.push(`${at} reaches out of its package: ${specifier}`);
  }
  return wrong;
}

describe('layering of the workspace packages and of svcform\'s src/ folders', () => {
  it('each package imports only the packages below it, and never reaches into another by path', () => {
    const wrong: string[] = [];
    for (const [name, { dir }] of Object.entries(PACKAGES)) {
      for (const part of ['src', 'test']) {
        for (const file of sources(join(WORKSPACE, dir, part))) wrong.push(...boundaryProblems(name, file, readFileSync(file, 'utf8')));
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('the boundary check names each kind of wrong import', () => {
    const emulatorFile = join(WORKSPACE, 'packages/emulator/src/areas/example.ts');
    assert.deepEqual(boundaryProblems('@svcform/emulator', emulatorFile, "import { clone } from 'svcform/common/json-copy.js';"), ['packages/emulator/src/areas/example.ts imports svcform/common/json-copy.js']);
    assert.deepEqual(boundaryProblems('@svcform/emulator', emulatorFile, "import { x } from '../../../svcform/src/kinds/rule/rule.js';"), ['packages/emulator/src/areas/example.ts reaches out of its package: ../../../svcform/src/kinds/rule/rule.js']);
    assert.deepEqual(boundaryProblems('svcform', join(WORKSPACE, 'packages/svcform/src/engine/plan.ts'), "import type { RunningEmulator } from '@svcform/emulator/server.js';"), ['packages/svcform/src/engine/plan.ts imports @svcform/emulator/server.js: only src/cli/emulator.ts and src/cli/context.ts run the emulator']);
    assert.deepEqual(boundaryProblems('svcform', join(WORKSPACE, 'packages/svcform/src/cli/emulator.ts'), "import { startEmulator } from '@svcform/emulator/server.js';"), []);
  });

  it("svcform's src/ folders import only from the layers below (no cycles between folders)", () => {
    const root = resolve('src');
    const wrong: string[] = [];
    for (const file of sources(root)) {
      const from = relative(root, file).split(/[\\/]/)[0];
      assert.ok(from in LAYERS, `src/${from} is a folder the layer table does not know; add it to LAYERS and docs/architecture.md`);
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
        if (!specifier.startsWith('.')) continue;
        const to = relative(root, resolve(dirname(file), specifier)).split(/[\\/]/)[0];
        if (to !== from && !LAYERS[from].includes(to)) wrong.push(`${relative(root, file)} imports ${specifier}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('no file imports itself through others: 0 import cycles in any package or across them, type-only imports included', () => {
    const files = Object.values(PACKAGES).flatMap(({ dir }) => sources(join(WORKSPACE, dir, 'src')));
    const known = new Set(files);
    const edges = new Map<string, string[]>();
    for (const file of files) {
      const targets: string[] = [];
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
        const target = resolveImport(file, specifier);
        if (target && known.has(target)) targets.push(target);
      }
      edges.set(file, targets);
    }
    assert.ok([...edges.values()].some((targets) => targets.some((t) => t.includes(`${PACKAGES['@svcform/query'].dir}/`))), 'imports across packages are followed');
    const root = WORKSPACE;
    // Tarjan's strongly connected components: a group of more than one file is a cycle.
    let next = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[] = [];
    const visit = (v: string): void => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      onStack.add(v);
      for (const w of edges.get(v) ?? []) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) !== index.get(v)) return;
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(relative(root, w));
      } while (w !== v);
      if (group.length > 1) cycles.push(group.sort().join(' <-> '));
    };
    for (const file of files) if (!index.has(file)) visit(file);
    assert.deepEqual(cycles, []);
  });

  it('no request in kinds/ or engine/ names an area by string', () => {
    const offenders: string[] = [];
    for (const dir of ['src/kinds', 'src/engine']) {
      for (const file of sources(resolve(dir))) {
        const text = readFileSync(file, 'utf8');
        // An area is named only as a value of the table (area: AREAS.fleet), never as a string.
        if (/\barea\s*[:=]\s*['"`]/.test(text) || /\bAREA\s*=/.test(text)) offenders.push(relative(resolve('.'), file));
      }
    }
    assert.deepEqual(offenders, []);
  });
});
