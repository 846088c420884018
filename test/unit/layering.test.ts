import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The folders of src/ form layers: each may import only the ones below it, so there is no import
 * cycle between folders (docs/architecture.md). manifest/ knows kinds only through the KindCatalog
 * interface it defines; the engine never reads configuration files; the emulator stands alone but for the query
 * languages it previews rules with.
 */
const ALLOWED: Record<string, string[]> = {
  common: [],
  client: ['common'],
  manifest: ['common'],
  query: ['common'],
  kinds: ['common', 'client', 'manifest', 'query'],
  engine: ['common', 'client', 'manifest', 'kinds'],
  report: ['common', 'manifest', 'kinds', 'engine'],
  emulator: ['common', 'query'],
  cli: ['common', 'client', 'manifest', 'query', 'kinds', 'engine', 'report', 'emulator'],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : [];
  });
}

describe('layering of src/ folders', () => {
  it('imports only from the layers below (no cycles between folders)', () => {
    const root = resolve('src');
    const wrong: string[] = [];
    for (const file of sources(root)) {
      const from = relative(root, file).split(/[\\/]/)[0];
      assert.ok(from in ALLOWED, `src/${from} is a folder the layer table does not know; add it to ALLOWED and docs/architecture.md`);
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
        const to = relative(root, resolve(dirname(file), m[1])).split(/[\\/]/)[0];
        if (to !== from && !ALLOWED[from].includes(to)) wrong.push(`${relative(root, file)} imports ${m[1]}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('no file imports itself through others: 0 import cycles, type-only imports included', () => {
    const root = resolve('src');
    const files = sources(root).filter((f) => !f.endsWith('.d.ts'));
    const known = new Set(files);
    const edges = new Map<string, string[]>();
    for (const file of files) {
      const targets: string[] = [];
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
        const target = resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts'));
        if (known.has(target)) targets.push(target);
      }
      edges.set(file, targets);
    }
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
