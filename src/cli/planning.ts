import { computePlan, type Plan } from '../engine/plan.js';
import { adapterFor, KIND_CATALOG, knownKinds } from '../kinds/registry.js';
import { formatDiagnostic, hasErrors, loadAndValidate } from '../manifest/validate.js';
import { redactor } from '../manifest/redact.js';
import type { Resource } from '../manifest/types.js';
import type { SvcformConfig } from './config.js';
import { liveReadProgress } from './progress.js';
import { prepareQueryChecks } from './field-lists.js';
import { defaultSpace, openTarget, readConfig, rootOf, selectionOf, UsageError, type CommonOptions, type Io, type Target } from './context.js';

export interface Planned {
  plan: Plan;
  target: Target;
  config: SvcformConfig;
  resources: Resource[];
}

/** Loads and validates manifests, printing every diagnostic; throws (exit 1) when any is an error. */
export async function loadResources(paths: string[], opts: CommonOptions, io: Io, config: SvcformConfig): Promise<Resource[]> {
  const root = rootOf(opts, config);
  const queryChecks = await prepareQueryChecks(opts, config, root);
  const result = loadAndValidate(paths, { defaultSpace: defaultSpace(opts, config), env: io.env, kinds: KIND_CATALOG, root, ...queryChecks });
  for (const d of result.diagnostics) if (d.severity === 'warning' || hasErrors([d])) io.err(redactor.redact(formatDiagnostic(d)));
  if (hasErrors(result.diagnostics)) {
    const n = result.diagnostics.filter((d) => d.severity === 'error').length;
    throw new UsageError(`${n} error${n === 1 ? '' : 's'} in the manifests; nothing was sent to the server`);
  }
  return result.resources;
}

/** validate -> open the target -> read live state -> plan. The caller closes the target. */
export async function planFromArgs(
  paths: string[],
  opts: CommonOptions & { rotateSecrets?: boolean },
  io: Io,
  /** Runs once the target is open, before live state is read (apply takes its lease here). */
  beforeReading?: (target: Target, spaces: string[]) => Promise<void>,
): Promise<Planned> {
  const config = readConfig(opts, paths);
  const resources = await loadResources(paths, opts, io, config);
  const space = defaultSpace(opts, config);
  const spaces = [...new Set([space, ...resources.map((r) => r.space), ...config.manage.flatMap((m) => m.spaces ?? [])])];
  const target = await openTarget(opts, config, io, spaces);
  const progress = liveReadProgress(io, opts, adapterFor);
  try {
    await beforeReading?.(target, spaces);
    const plan = await computePlan({
      resources,
      manage: config.manage,
      adapterFor: progress.adapterFor,
      ctx: target.ctx,
      select: selectionOf(opts.select),
      ignoreRules: config.ignore,
      rotateSecrets: opts.rotateSecrets,
      spaces: [space],
      kinds: knownKinds(),
    });
    progress.done();
    return { plan, target, config, resources };
  } catch (err) {
    progress.done();
    await target.close();
    throw err;
  }
}
