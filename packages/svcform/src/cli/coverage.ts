import { fetchLive, pairKey } from '../engine/live.js';
import { coverageMatrix, type Matrix } from '../kinds/rule/coverage.js';
import { adapterFor } from '../kinds/registry.js';
import { hasErrors, loadAndValidate } from '../manifest/validate.js';
import { formatDiagnostics } from '../manifest/diagnostic-lines.js';
import { redactor } from '../manifest/redact.js';
import { matrixMarkdown, matrixText } from '../report/coverage.js';
import { defaultSpace, openTarget, readConfig, UsageError, type CommonOptions, type Io } from './context.js';
import { setUpValidation } from './validation-setup.js';

export interface CoverageOptions extends CommonOptions {
  live?: boolean;
  json?: boolean;
  format?: string;
}

/**
 * `svcform coverage [PATHS]`: the ATT&CK matrix of the enabled rules the manifests declare
 * (offline, no server, no secret needed: only rules are read), or with `--live` of the rules the
 * server holds in the space.
 */
export async function coverageCommand(paths: string[], opts: CoverageOptions, io: Io): Promise<number> {
  const config = readConfig(opts, paths);
  const rules = opts.live ? await liveRules(opts, io, config) : await declaredRules(paths, opts, io, config);
  const matrix = coverageMatrix(rules.bodies);
  const format = opts.json ? 'json' : (opts.format ?? 'text'); // commander checks the choices
  if (format === 'json') io.out(redactor.redact(JSON.stringify(withSource(matrix, rules.source), null, 2)));
  else if (format === 'markdown') io.out(redactor.redact(matrixMarkdown(matrix)));
  else io.out(redactor.redact(matrixText(matrix)));
  return 0;
}

const withSource = (m: Matrix, source: Record<string, string>) => ({ ...source, ...m });

async function declaredRules(paths: string[], opts: CoverageOptions, io: Io, config: ReturnType<typeof readConfig>) {
  const setup = await setUpValidation(opts, config, io);
  // A count of rules needs no secret: a missing one is a warning here, as in `validate --offline-secrets`.
  const result = await loadAndValidate(paths, { ...setup.options, offlineSecrets: true });
  for (const line of formatDiagnostics(result.diagnostics.filter((d) => d.severity === 'error' || !opts.quiet))) io.err(redactor.redact(line));
  setup.finish();
  if (hasErrors(result.diagnostics)) {
    const n = result.diagnostics.filter((d) => d.severity === 'error').length;
    throw new UsageError(`${n} error${n === 1 ? '' : 's'} in the manifests`);
  }
  return { source: { source: 'manifests' }, bodies: result.resources.filter((r) => r.kind === 'Rule').map((r) => r.spec) };
}

async function liveRules(opts: CoverageOptions, io: Io, config: ReturnType<typeof readConfig>) {
  const space = defaultSpace(opts, config);
  const target = await openTarget(opts, config, io, [space]);
  try {
    const live = await fetchLive(target.ctx, [{ kind: 'Rule', space }], adapterFor, () => false, undefined, undefined, space);
    if (live.failures.length) throw new UsageError(`cannot read the rules of space ${space}: ${live.failures[0].error.message}`);
    return { source: { source: 'live', space }, bodies: (live.objects.get(pairKey('Rule', space)) ?? []).map((o) => o.body) };
  } finally {
    await target.close();
  }
}
