import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { makeDirectory } from '../common/make-directory.js';
import { computePlan } from '../engine/plan.js';
import { fetchLive, pairKey } from '../engine/live.js';
import { isOwned, scopePairs, type ManageScope } from '../engine/ownership.js';
import { declaredSpaces } from '../engine/space-objects.js';
import { missingSpaces } from '../client/spaces.js';
import { adapterFor, knownKinds } from '../kinds/registry.js';
import type { LiveObject } from '../kinds/types.js';
import { overlaidSpecPointers, type EnvironmentOverlays } from '../manifest/overlay.js';
import type { Resource, SourcePos } from '../manifest/types.js';
import { formatPointer } from '../common/pointer.js';
import { planToJson } from '../report/plan-json.js';
import { renderPlanText } from '../report/text.js';
import { renderPlanMarkdown } from '../report/markdown.js';
import { EnvironmentError, withEnvironment, type SvcformConfig } from './config.js';
import { colorsFor, defaultSpace, openTarget, readConfig, selectionOf, UsageError, type CommonOptions, type Io, type Target } from './context.js';
import { loadResources } from './planning.js';

export interface PromoteOptions extends CommonOptions {
  from: string;
  to: string;
  json?: boolean;
  format?: string;
  detailedExitcode?: boolean;
  showUnmanaged?: boolean;
}

const same = (kind: string, space: string, name: string) => `${kind}\u0000${space}\u0000${name}`;
const overlaysOf = (config: SvcformConfig): EnvironmentOverlays => ({ environment: config.environment!.name, overlays: config.environment!.overlays });

/**
 * `svcform promote --from staging --to prod [PATHS]`: the plan that would make the live objects of
 * `--to` match those of `--from`. The live objects of `--from` (those the manifests declare or a
 * manage scope owns, in the kinds and spaces they cover) stand in for the manifests, and the one
 * planner compares them with `--to`. A field either environment's overlay sets is that
 * environment's own: it is left out of the comparison, as an ignored field is. Writes nothing.
 */
export async function promoteCommand(paths: string[], opts: PromoteOptions, io: Io): Promise<number> {
  if (opts.env !== undefined) throw new UsageError('promote takes --from and --to, not --env');
  if (opts.url !== undefined) throw new UsageError('promote reads the targets of --from and --to: --url names neither');
  if (opts.from === opts.to) throw new UsageError(`--from and --to are both ${opts.from}: promote compares two environments`);
  const base = readConfig({ ...opts, env: undefined }, paths);
  let from: SvcformConfig;
  let to: SvcformConfig;
  try {
    from = withEnvironment(base, opts.from);
    to = withEnvironment(base, opts.to);
  } catch (err) {
    if (err instanceof EnvironmentError) throw new UsageError(err.message.replace(/^--env/, err.message.includes(`--env ${opts.from}:`) ? '--from' : '--to'));
    throw err;
  }
  // Each environment sees the manifests through its own overlays; a finding shown for one is not shown again.
  const printed = new Set<string>();
  const { resources: fromResources } = await loadResources(paths, opts, io, from, undefined, true, printed);
  const { resources: toResources } = await loadResources(paths, opts, io, to, undefined, true, printed);
  const fromHome = defaultSpace(opts, from);
  const toHome = defaultSpace(opts, to);
  // What the manifests place in the default space of one environment is in the other's default space.
  const toSpace = (space: string) => (space === fromHome ? toHome : space);

  const source = await openEnvironment(opts, from, io, fromResources, fromHome);
  let picked: LiveObject[];
  try {
    picked = await readPromoted(source, from, fromResources, fromHome, opts);
  } finally {
    await source.target.close();
  }
  const scratch = mkdtempSync(join(tmpdir(), 'svcform-promote-'));
  try {
    const declared = new Map(fromResources.map((r) => [same(r.kind, r.space, r.name), r]));
    const resources = picked.map((o, i) => asResource(o, declared.get(same(o.kind, o.space, o.name)), toSpace(o.space), [overlaysOf(from), overlaysOf(to)], source.target, join(scratch, String(i))));
    // What the manifests declare is `--to`'s to hold only if `--from` holds it: a delete otherwise.
    const declaredScopes: ManageScope[] = toResources.map((r) => ({ kind: r.kind, spaces: [r.space], selector: { names: [r.name] } }));
    const dest = await openEnvironment(opts, to, io, toResources, toHome);
    try {
      const plan = await computePlan({
        resources,
        manage: [...base.manage, ...declaredScopes],
        adapterFor,
        ctx: dest.target.ctx,
        select: selectionOf(opts.select),
        ignoreRules: base.ignore,
        spaces: [toHome],
        kinds: knownKinds(),
        missingReferences: base.references?.missing,
        absentSpaces: dest.absent,
      });
      const format = opts.json ? 'json' : (opts.format ?? 'text');
      const target = { url: dest.target.url, embedded: dest.target.embedded, environment: opts.to };
      if (format === 'json') io.out(JSON.stringify({ ...planToJson(plan, target, dest.target.ctx.run), promoted_from: { url: source.target.url, environment: opts.from } }, null, 2));
      else if (format === 'markdown') io.out(`**Promote ${opts.from} → ${opts.to}**\n\n` + renderPlanMarkdown(plan, dest.target.url, { command: 'plan', showUnmanaged: opts.showUnmanaged }));
      else {
        const n = plan.changes.length;
        const head = n === 0 ? `No differences: ${opts.to} matches ${opts.from}.\n` : `Promote ${opts.from} -> ${opts.to}: ${n} change${n === 1 ? '' : 's'} would make ${opts.to} match ${opts.from}.\n\n`;
        io.out(head + renderPlanText(plan, colorsFor(opts, io, 'out'), { showUnmanaged: opts.showUnmanaged }));
      }
      if (plan.errors.length) return 1;
      return opts.detailedExitcode && plan.changes.length > 0 ? 2 : 0;
    } finally {
      await dest.target.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** One environment's target, opened on the spaces its manifests need; `absent`: declared spaces it does not hold yet. */
async function openEnvironment(opts: CommonOptions, config: SvcformConfig, io: Io, resources: Resource[], home: string): Promise<{ target: Target; spaces: string[]; absent: string[] }> {
  const spaces = [...new Set([home, ...resources.map((r) => r.space), ...config.manage.flatMap((m) => m.spaces ?? [])])];
  const declared = declaredSpaces(resources, adapterFor);
  if (!opts.quiet) io.err(`Environment ${config.environment!.name}:`);
  const target = await openTarget(opts, config, io, spaces.filter((s) => !declared.has(s)));
  try {
    const absent = await missingSpaces(target.client, spaces.filter((s) => declared.has(s)));
    return { target, spaces, absent };
  } catch (err) {
    await target.close();
    throw err;
  }
}

/** The live objects of `--from` promote carries over: declared by a manifest or owned by a manage scope, never read-only ones. */
async function readPromoted(source: { target: Target; spaces: string[]; absent: string[] }, config: SvcformConfig, resources: Resource[], home: string, opts: CommonOptions): Promise<LiveObject[]> {
  const runSpaces = source.spaces.filter((s) => !source.absent.includes(s));
  const pairs = [...resources.map((r) => ({ kind: r.kind, space: r.space })), ...scopePairs(config.manage, runSpaces)].filter((p) => !source.absent.includes(p.space));
  const live = await fetchLive(source.target.ctx, pairs, adapterFor, () => false, undefined, undefined, home);
  if (live.failures.length) {
    const f = live.failures[0];
    throw new UsageError(`environment ${config.environment!.name}: could not read ${f.kind} in space ${f.space}: ${f.error.message}`);
  }
  const declared = new Set(resources.map((r) => same(r.kind, r.space, r.name)));
  const select = selectionOf(opts.select);
  const seen = new Set<string>();
  const out: LiveObject[] = [];
  for (const p of pairs) {
    const key = pairKey(p.kind, p.space);
    if (seen.has(key)) continue;
    seen.add(key);
    for (const o of live.objects.get(key) ?? []) {
      if (o.readOnly || !select.matches(o.kind, o.name)) continue;
      if (declared.has(same(o.kind, o.space, o.name)) || isOwned(o, config.manage)) out.push(o);
    }
  }
  return out;
}

/**
 * A live object of `--from` as the manifest `--to` is planned against: its exported spec, secrets
 * (which no server returns) and overlaid fields ignored, files it names written to `scratch`.
 */
function asResource(o: LiveObject, manifest: Resource | undefined, space: string, environments: EnvironmentOverlays[], source: Target, dir: string): Resource {
  const adapter = adapterFor(o.kind)!;
  const { spec, files, variables } = adapter.toSpec(o, source.ctx.run);
  for (const [path, content] of Object.entries(files ?? {})) {
    makeDirectory(dirname(join(dir, path)));
    writeFileSync(join(dir, path), content);
  }
  makeDirectory(dir);
  const placeholders = new Set((variables ?? []).map((v) => `\${env:${v.name}}`));
  const secretPointers = new Set<string>();
  const walk = (v: unknown, path: Array<string | number>) => {
    if (typeof v === 'string' && placeholders.has(v)) secretPointers.add(formatPointer(path));
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(spec, []);
  const labels = manifest?.labels ?? {};
  const doc = { kind: o.kind, metadata: { name: o.name, labels }, spec };
  const ignore = new Set([...(manifest?.ignore ?? []), ...[...secretPointers].map((p) => '/spec' + p)]);
  for (const env of environments) for (const p of overlaidSpecPointers(env, doc)) ignore.add('/spec' + p);
  const pos: SourcePos = { file: `${environments[0].environment} (live)`, line: 1, col: 1 };
  return { apiVersion: 'svcform/v1', kind: o.kind, name: o.name, space, labels, ignore: [...ignore], spec, source: pos, posOf: () => pos, secretPointers, dir, root: dir };
}
