import { displayPath } from '../manifest/load.js';
import { hasErrors, loadAndValidate } from '../manifest/validate.js';
import { foldDiagnostics, formatDiagnostics } from '../manifest/diagnostic-lines.js';
import { redactor } from '../manifest/redact.js';
import type { Diagnostic } from '../manifest/types.js';
import { readConfig, type CommonOptions, type Io } from './context.js';
import { setUpValidation } from './validation-setup.js';

export interface ValidateOptions extends CommonOptions {
  json?: boolean;
  /** text (default), json (as --json), or github: workflow-command annotations (githubAnnotation). */
  format?: string;
  offlineSecrets?: boolean;
}

/**
 * One finding as a GitHub Actions workflow command, which the runner shows as an annotation on the
 * file and line of a pull request: `::error file=F,line=L,col=C,title=T::message`. Escaped as the
 * runner reads it back: `%`, CR and LF in the message; also `:` and `,` in property values.
 */
export function githubAnnotation(d: Diagnostic, more = ''): string {
  const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const property = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const title = d.subject === undefined ? '' : `,title=${property(redactor.redact(d.subject))}`;
  const message = redactor.redact(`${d.subject ? `${d.subject}: ` : ''}${d.message}${more}`);
  return `::${d.severity} file=${property(d.pos.file)},line=${d.pos.line},col=${d.pos.col}${title}::${data(message)}`;
}

/** Annotations of one severity GitHub shows for a step; the rest are only in the step's log. */
const ANNOTATIONS_SHOWN = 10;

/**
 * The annotations of `diagnostics` (repeats of one cause folded, as in text), and a notice when
 * GitHub will not show them all: it drops the others from the pull request without a word.
 */
export function githubAnnotations(diagnostics: readonly Diagnostic[]): string[] {
  const folded = foldDiagnostics(diagnostics);
  const lines = folded.map(({ diagnostic, more }) => githubAnnotation(diagnostic, more));
  const count = (severity: Diagnostic['severity']) => folded.filter((f) => f.diagnostic.severity === severity).length;
  const over = (['error', 'warning'] as const).map((severity) => ({ severity, n: count(severity) })).filter(({ n }) => n > ANNOTATIONS_SHOWN);
  if (over.length > 0) {
    const what = over.map(({ severity, n }) => `${n} ${severity}s`).join(' and ');
    const hidden = over.reduce((sum, { n }) => sum + n - ANNOTATIONS_SHOWN, 0);
    lines.push(`::notice title=svcform::GitHub annotates ${ANNOTATIONS_SHOWN} findings of each kind a step: ${hidden} of these ${what} are only in this step's log (svcform validate --json lists every finding)`);
  }
  return lines;
}

/** `svcform validate`: offline checks only; never contacts a server. */
export async function validateCommand(paths: string[], opts: ValidateOptions, io: Io): Promise<number> {
  const config = readConfig(opts, paths);
  const started = Date.now();
  const setup = await setUpValidation(opts, config, io);
  const result = await loadAndValidate(paths, { ...setup.options, offlineSecrets: !!opts.offlineSecrets });
  if (opts.verbose) {
    for (const file of result.files) io.err(`read ${displayPath(file)}`);
    io.err(`validated ${result.resources.length} resources in ${result.files.length} files in ${Date.now() - started} ms`);
  }
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  const warnings = result.diagnostics.filter((d) => d.severity === 'warning');
  const format = opts.json ? 'json' : (opts.format ?? 'text'); // commander checks the choices
  if (format === 'json') {
    io.out(
      redactor.redact(
        JSON.stringify(
          {
            valid: errors.length === 0,
            files: result.files.length,
            resources: result.resources.length,
            // Redacted field by field: JSON escaping (of a quote, a newline) would hide a secret from a redaction of the whole text.
            diagnostics: result.diagnostics.map((d) => ({
              severity: d.severity,
              file: d.pos.file,
              line: d.pos.line,
              column: d.pos.col,
              subject: d.subject === undefined ? null : redactor.redact(d.subject),
              message: redactor.redact(d.message),
            })),
          },
          null,
          2,
        ),
      ),
    );
  } else {
    // Annotations go to stdout, where the runner reads workflow commands: one per finding, each on
    // its line of the pull request, but repeats of one cause are one, as in text. GitHub shows ten
    // annotations of a severity a step: a warning on every rule hid every other finding, and
    // placing all of them cost a first run 0.3 s on the 2,068 real rules.
    if (format === 'github') for (const line of githubAnnotations(result.diagnostics)) io.out(line);
    else for (const line of formatDiagnostics(result.diagnostics)) io.err(redactor.redact(line));
    if (!opts.quiet) {
      const status = errors.length === 0 ? 'valid' : 'invalid';
      const summary = `${result.resources.length} resources in ${result.files.length} files: ${status} (${errors.length} errors, ${warnings.length} warnings)`;
      // Success is the command's result, as `plan` prints its plan: stdout. A failed run's summary
      // stays with its diagnostics on stderr.
      if (errors.length === 0) io.out(summary);
      else io.err(summary);
    }
  }
  setup.finish();
  return hasErrors(result.diagnostics) ? 1 : 0;
}
