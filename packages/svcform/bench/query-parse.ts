/**
 * `npm run bench:queries`: how long the query languages take to parse the distinct queries of the
 * realistic rules (bench/realistic.ts: multi-line eql and kuery), in fresh processes, as a cold
 * plan or validate meets them. Each process parses every query twice: the first pass is what a
 * run pays (mostly before V8 has optimized the generated parsers), the second shows the parsers'
 * own speed.
 *
 * With `--against DIR` (the root of another build, e.g. a worktree of an older commit, built),
 * runs alternate between this build and that one, and the ratio of the medians is printed: the way
 * a grammar change is measured against the grammar it replaces.
 *
 *   node dist/bench/query-parse.js [--rules N] [--runs N] [--against DIR]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { realisticQueries } from './realistic.js';
import { median, option, stringOption } from './wire.js';

interface Pass {
  language: string;
  queries: number;
  chars: number;
  firstMs: number;
  secondMs: number;
}

/** In the child: parse the queries of `file` with the languages of the build whose dist is `dist`. */
async function child(file: string, dist: string): Promise<void> {
  const { loadLanguage } = (await import(pathToFileURL(join(dist, 'src/query/languages.js')).href)) as typeof import('@svcform/query/languages.js');
  const byLanguage = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;
  const passes: Pass[] = [];
  for (const [language, queries] of Object.entries(byLanguage)) {
    const parser = await loadLanguage(language as never);
    const time = () => {
      const started = performance.now();
      for (const q of queries) parser.parse(q);
      return performance.now() - started;
    };
    const firstMs = time();
    const secondMs = time();
    passes.push({ language, queries: queries.length, chars: queries.reduce((n, q) => n + q.length, 0), firstMs, secondMs });
  }
  process.stdout.write(JSON.stringify(passes));
}

async function main(): Promise<void> {
  const childAt = process.argv.indexOf('--child');
  if (childAt !== -1) return child(process.argv[childAt + 1], process.argv[childAt + 2]);
  const rules = option('rules', 2068);
  const runs = option('runs', 9);
  const against = stringOption('against');
  const distinct = realisticQueries(rules);
  const dir = mkdtempSync(join(tmpdir(), 'svcform-bench-queries-'));
  try {
    const file = join(dir, 'queries.json');
    writeFileSync(file, JSON.stringify(Object.fromEntries(distinct)));
    const here = fileURLToPath(new URL('..', import.meta.url));
    const builds: Array<[string, string]> = [['this build', here]];
    if (against) builds.push([`--against ${against}`, join(resolve(against), 'dist')]);
    const script = fileURLToPath(import.meta.url);
    const results = new Map<string, Pass[][]>(builds.map(([label]) => [label, []]));
    for (let run = 0; run < runs; run++) {
      for (const [label, dist] of builds) results.get(label)!.push(JSON.parse(execFileSync(process.execPath, [script, '--child', file, dist], { encoding: 'utf8' })) as Pass[]);
    }
    const medians = new Map<string, Map<string, { first: number; second: number }>>();
    for (const [label, passes] of results) {
      const byLanguage = new Map<string, { first: number; second: number }>();
      for (const language of distinct.keys()) {
        const of = passes.map((p) => p.find((x) => x.language === language)!);
        byLanguage.set(language, { first: median(of.map((p) => p.firstMs)), second: median(of.map((p) => p.secondMs)) });
        const { queries, chars } = of[0];
        console.log(`${label}: ${language}, ${queries} distinct queries (${(chars / 1024).toFixed(0)} KB): first pass ${byLanguage.get(language)!.first.toFixed(0)} ms, second ${byLanguage.get(language)!.second.toFixed(0)} ms (medians of ${runs} processes; first passes ${of.map((p) => p.firstMs.toFixed(0)).join(' ')})`);
      }
      medians.set(label, byLanguage);
    }
    if (against) {
      const [mine, theirs] = builds.map(([label]) => medians.get(label)!);
      for (const language of distinct.keys()) {
        const a = mine.get(language)!;
        const b = theirs.get(language)!;
        console.log(`${language}: first pass ${(b.first / a.first).toFixed(2)}x, second ${(b.second / a.second).toFixed(2)}x (the other build's median over this one's)`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
