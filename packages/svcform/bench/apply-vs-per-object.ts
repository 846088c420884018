/**
 * `npm run bench:apply`: svcform's apply against per-object writes, in the same run.
 *
 * Realistic rules (bench/realistic.ts) or a directory of manifests (--dir: the real rules that
 * scripts/corpus-check.mjs converts; copied, never written to), the emulator in this process with
 * latency (20 ms), and per run, each on its own freshly reset server where it matters:
 *  - creates: `svcform apply` (child process) onto an empty server, against POST + read-back GET
 *    per rule, 10 in flight, as a per-resource provider creates;
 *  - full updates: every rule's description changed (with --dir, " (revised)" appended to each
 *    Rule's), `svcform apply` against PUT + read-back GET per rule, 10 in flight.
 * Each run's svcform applies start from an empty cache directory (the creates parse every query;
 * the updates, whose queries are the same, find them in the cache); --no-cache runs without one.
 * A first run, the same as the others, is not counted: the server a user applies to has served
 * before, and the emulator's code for the import and for the per-rule routes is compiled by then
 * (in a fresh process the first create apply of the real rules was 0.3-0.5 s slower than those after it).
 * Prints every run (wall and CPU seconds of the child) and the ratios of the medians. The goal is
 * >= 5x for both. With --against DIR, the build in DIR (a checkout after `npm run build`) applies by
 * turns with this one in each run, against the same server and the same per-object figures.
 *
 *   node dist/bench/apply-vs-per-object.js [--rules N] [--files N] [--dir DIR] [--latency MS] [--runs N] [--no-cache] [--against DIR] [--keep]
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { startEmulator } from '@svcform/emulator/server.js';
import { loadAndValidate } from '../src/manifest/validate.js';
import { KIND_CATALOG } from '../src/kinds/registry.js';
import type { Resource } from '../src/manifest/types.js';
import { writeRealisticRepository } from './realistic.js';
import { CLI, cliOf, control, fmt, fmtTimed, median, medianTimed, option, PerObjectClient, setLatency, stringOption, timeCli, runMain, type Timed } from './wire.js';

const GOAL = 5;

async function load(dir: string): Promise<Resource[]> {
  const loaded = await loadAndValidate([dir], { env: {}, kinds: KIND_CATALOG });
  if (loaded.diagnostics.some((d) => d.severity === 'error')) throw new Error(`${dir} does not validate`);
  return loaded.resources;
}

/**
 * A copy of the manifests of `from` in `base`, and in `changed` the same with " (revised)" appended
 * to each Rule's description (through the yaml package's documents, so every scalar style stays
 * what it was); returns how many rules were changed.
 */
function copyWithChange(from: string, base: string, changed: string): number {
  cpSync(from, base, { recursive: true });
  cpSync(from, changed, { recursive: true });
  let rules = 0;
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (/\.ya?ml$/.test(entry.name)) {
        const docs = parseAllDocuments(readFileSync(path, 'utf8'));
        if (!Array.isArray(docs)) continue;
        for (const doc of docs) {
          if (doc.get('kind') !== 'Rule' || typeof doc.getIn(['spec', 'description']) !== 'string') continue;
          doc.setIn(['spec', 'description'], `${doc.getIn(['spec', 'description'])} (revised)`);
          rules++;
        }
        writeFileSync(path, docs.map((d) => d.toString({ lineWidth: 0 })).join(''));
      }
    }
  };
  visit(changed);
  return rules;
}

/** The write body a per-resource provider sends: the spec, rule_id, and each action's connector type. */
function ruleBody(res: Resource, types: Map<string, string>): Record<string, any> {
  const body: Record<string, any> = { ...res.spec, rule_id: res.name };
  if (Array.isArray(body.actions)) body.actions = body.actions.map((a: any) => ({ ...a, action_type_id: types.get(a.id) }));
  return body;
}

async function perObject(url: string, resources: Resource[], method: 'POST' | 'PUT'): Promise<{ seconds: number; requests: number }> {
  const client = new PerObjectClient(url, 10);
  const connectors = resources.filter((r) => r.kind === 'Connector');
  const types = new Map(connectors.map((c) => [c.name, c.spec.connector_type_id as string]));
  const rules = resources.filter((r) => r.kind === 'Rule');
  const started = process.hrtime.bigint();
  if (method === 'POST') await client.each(connectors, (c) => client.call('POST', `/api/actions/connector/${c.name}`, c.spec));
  await client.each(rules, async (r) => {
    await client.call(method, '/api/detection_engine/rules', ruleBody(r, types));
    await client.call('GET', `/api/detection_engine/rules?rule_id=${encodeURIComponent(r.name)}`);
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await client.close();
  return { seconds, requests: client.requests };
}

async function main(): Promise<number> {
  const latency = option('latency', 20);
  const runs = option('runs', 3);
  const rules = option('rules', 2068);
  const root = mkdtempSync(join(tmpdir(), 'svcform-bench-apply-'));
  // The caches go beside the repository, not in it: svcform reads none inside the checkout.
  const caches = mkdtempSync(join(tmpdir(), 'svcform-bench-apply-caches-'));
  try {
    const base = join(root, 'base');
    const changed = join(root, 'changed');
    const given = stringOption('dir');
    if (given) {
      const count = copyWithChange(given, base, changed);
      console.log(`copied ${given} into ${root}; ${count} rules with a changed description`);
    } else {
      mkdirSync(base);
      mkdirSync(changed);
      const repo = writeRealisticRepository(base, { rules, files: option('files', 42) });
      writeRealisticRepository(changed, { rules, files: option('files', 42), change: '(revised)' });
      console.log(`generated ${repo.rules} rules in ${repo.files.length} files, ${(repo.bytes / 1048576).toFixed(1)} MB, in ${root}`);
    }
    const baseResources = await load(base);

    const emu = await startEmulator({ port: 0 });
    const reset = async () => {
      await control(emu.url, 'POST', '/reset');
      await setLatency(emu.url, latency);
    };
    const noCache = process.argv.includes('--no-cache') ? ['--no-cache'] : [];
    const applyArgs = (dir: string) => ['apply', dir, '--url', emu.url, '--quiet', ...noCache];
    // This build, and with --against DIR another one (a checkout after `npm run build`), by turns
    // in each run against the same server: on a shared machine only such pairs compare.
    const against = stringOption('against');
    const builds = [{ label: 'this build', cli: CLI }, ...(against ? [{ label: against, cli: cliOf(against) }] : [])];
    const rows = builds.map(() => ({ create: [] as Timed[], update: [] as Timed[] }));
    const perCreates: number[] = [];
    const perUpdates: number[] = [];
    const timed = async (what: string, args: string[], env: NodeJS.ProcessEnv, cli: string): Promise<Timed> => {
      const t = await timeCli(args, root, env, { cli, cpu: true });
      if (t.code !== 0) throw new Error(`apply (${what}) failed: ${t.err.slice(0, 2000)}`);
      return { wall: t.seconds, cpu: t.cpuSeconds ?? Number.NaN };
    };
    try {
      console.log(`latency ${latency} ms; ${runs} runs after one not counted`);
      for (let run = 0; run <= runs; run++) {
        await reset();
        const perCreate = await perObject(emu.url, baseResources, 'POST');
        const order = run % 2 ? builds.map((_, i) => i) : builds.map((_, i) => builds.length - 1 - i);
        for (const i of order) {
          await reset();
          const cache = { SVCFORM_CACHE_DIR: mkdtempSync(join(caches, 'cache-')) };
          rows[i]!.create.push(await timed('creates', applyArgs(base), cache, builds[i]!.cli));
          rows[i]!.update.push(await timed('updates', applyArgs(changed), cache, builds[i]!.cli));
        }
        // The per-object updates write the base bodies back over the changed ones: the same amount of change.
        const perUpdate = await perObject(emu.url, baseResources, 'PUT');
        await setLatency(emu.url, 0);
        const converged = await timeCli(['plan', base, '--url', emu.url, '--detailed-exitcode', '--quiet', ...noCache], root, { SVCFORM_CACHE_DIR: mkdtempSync(join(caches, 'cache-')) });
        if (converged.code !== 0) throw new Error(`plan after the per-object updates is not empty: ${(converged.out + converged.err).slice(-1500)}`);
        if (run === 0) {
          const first = rows.map((row) => `creates ${fmtTimed(row.create.pop()!)}, updates ${fmtTimed(row.update.pop()!)}`).join('; ');
          console.log(`run 0, not counted: svcform ${first} | POST+GET ${fmt(perCreate.seconds)}, PUT+GET ${fmt(perUpdate.seconds)}`);
          continue;
        }
        perCreates.push(perCreate.seconds);
        perUpdates.push(perUpdate.seconds);
        for (const [i, build] of builds.entries()) {
          const { create, update } = rows[i]!;
          console.log(
            `run ${run}${builds.length > 1 ? ` [${build.label}]` : ''}: creates: svcform ${fmtTimed(create.at(-1)!)} | POST+GET ${fmt(perCreate.seconds)} (${perCreate.requests} requests) | ${(perCreate.seconds / create.at(-1)!.wall).toFixed(2)}x;` +
              ` updates: svcform ${fmtTimed(update.at(-1)!)} | PUT+GET ${fmt(perUpdate.seconds)} | ${(perUpdate.seconds / update.at(-1)!.wall).toFixed(2)}x`,
          );
        }
      }
      const ratios = builds.map((build, i) => {
        const create = medianTimed(rows[i]!.create);
        const update = medianTimed(rows[i]!.update);
        const label = builds.length > 1 ? ` [${build.label}]` : '';
        const createRatio = median(perCreates) / create.wall;
        const updateRatio = median(perUpdates) / update.wall;
        console.log(`median creates${label}: svcform ${fmtTimed(create)}, POST+GET ${fmt(median(perCreates))}: ${createRatio.toFixed(2)}x (goal >= ${GOAL}x)`);
        console.log(`median updates${label}: svcform ${fmtTimed(update)}, PUT+GET ${fmt(median(perUpdates))}: ${updateRatio.toFixed(2)}x (goal >= ${GOAL}x)`);
        return Math.min(createRatio, updateRatio);
      });
      console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
      return ratios[0]! >= GOAL ? 0 : 1;
    } finally {
      await emu.stop();
    }
  } finally {
    if (process.argv.includes('--keep')) console.log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
    rmSync(caches, { recursive: true, force: true });
  }
}

runMain(main);
