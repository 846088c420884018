/**
 * `npm run bench:yaml`: how long reading the realistic rule repository's YAML takes (2,068 rules in
 * 42 files, 16 MB: long markdown guides, multi-line queries, unicode), in fresh processes, with:
 * - svcform's reader (src/manifest/yaml-fast.ts, the `yaml` package for what it leaves), as every
 *   command reads manifests;
 * - the `yaml` package alone (the same loader with the fast reader off): what the fast reader replaced;
 * - js-yaml's loadAll: the other maintained YAML library for Node. It gives values only: error
 *   positions would still need the `yaml` package, on a second reading.
 *
 * Each process reads every file twice: the first pass is what a command pays (before V8 has
 * optimized the reader), the second the reader's own speed. Medians of `--runs` processes each.
 *
 *   node dist/bench/yaml-read.js [--rules N] [--runs N]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeRealisticRepository } from './realistic.js';
import { median, option } from './wire.js';

const READERS = ['svcform', 'yaml package', 'js-yaml'] as const;
type Reader = (typeof READERS)[number];

interface Pass {
  documents: number;
  firstMs: number;
  secondMs: number;
}

/** In the child: read `files` with `reader`, twice, and print the passes. */
async function child(reader: Reader, files: string[]): Promise<void> {
  const texts = files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  let read: (text: string, file: string) => number;
  if (reader === 'js-yaml') {
    const { loadAll } = await import('js-yaml');
    read = (text) => loadAll(text).length;
  } else {
    const { readManifestText } = await import('../src/manifest/load.js');
    const fast = reader === 'svcform';
    read = (text, file) => {
      const { docs, diagnostics } = readManifestText(text, file, { fast });
      if (diagnostics.length > 0) throw new Error(`${file}: ${diagnostics[0].message}`);
      return docs.length;
    };
  }
  const time = () => {
    const started = performance.now();
    let documents = 0;
    for (const { file, text } of texts) documents += read(text, file);
    return { documents, ms: performance.now() - started };
  };
  const first = time();
  const second = time();
  process.stdout.write(JSON.stringify({ documents: first.documents, firstMs: first.ms, secondMs: second.ms } satisfies Pass));
}

async function main(): Promise<void> {
  const childAt = process.argv.indexOf('--child');
  if (childAt !== -1) return child(process.argv[childAt + 1] as Reader, JSON.parse(process.argv[childAt + 2]) as string[]);
  const rules = option('rules', 2068);
  const runs = option('runs', 5);
  const dir = mkdtempSync(join(tmpdir(), 'svcform-bench-yaml-'));
  try {
    const repo = writeRealisticRepository(dir, { rules });
    const files = repo.files.filter((f) => f.includes('rules-'));
    console.log(`${rules} realistic rules in ${files.length} files, ${(repo.bytes / 1048576).toFixed(1)} MB; ${runs} processes per reader, alternating`);
    const script = fileURLToPath(import.meta.url);
    const passes = new Map<Reader, Pass[]>(READERS.map((r) => [r, []]));
    for (let run = 0; run < runs; run++) {
      for (const reader of READERS) {
        passes.get(reader)!.push(JSON.parse(execFileSync(process.execPath, [script, '--child', reader, JSON.stringify(files)], { encoding: 'utf8', maxBuffer: 1 << 20 })) as Pass);
      }
    }
    const medians = new Map<Reader, { first: number; second: number }>();
    for (const reader of READERS) {
      const of = passes.get(reader)!;
      const documents = new Set(of.map((p) => p.documents));
      if (documents.size !== 1 || !documents.has(rules)) throw new Error(`${reader} read ${[...documents].join(', ')} documents, not ${rules}`);
      const m = { first: median(of.map((p) => p.firstMs)), second: median(of.map((p) => p.secondMs)) };
      medians.set(reader, m);
      console.log(`${reader}: first pass ${m.first.toFixed(0)} ms, second ${m.second.toFixed(0)} ms (first passes ${of.map((p) => p.firstMs.toFixed(0)).join(' ')})`);
    }
    const mine = medians.get('svcform')!;
    for (const other of READERS.filter((r) => r !== 'svcform')) {
      const theirs = medians.get(other)!;
      console.log(`svcform against ${other}: first pass ${(theirs.first / mine.first).toFixed(2)}x, second ${(theirs.second / mine.second).toFixed(2)}x faster`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
