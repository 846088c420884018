import { displayPath } from '../manifest/load.js';
import { formatDiagnostics, hasErrors, loadAndValidate } from '../manifest/validate.js';
import { redactor } from '../manifest/redact.js';
import { readConfig, type CommonOptions, type Io } from './context.js';
import { setUpValidation } from './validation-setup.js';

export interface ValidateOptions extends CommonOptions {
  json?: boolean;
  offlineSecrets?: boolean;
}

/** `svcform validate`: offline checks only; never contacts a server. */
export async function validateCommand(paths: string[], opts: ValidateOptions, io: Io): Promise<number> {
  const config = readConfig(opts, paths);
  const started = Date.now();
  const setup = await setUpValidation(opts, config, io);
  const result = loadAndValidate(paths, { ...setup.options, offlineSecrets: !!opts.offlineSecrets });
  if (opts.verbose) {
    for (const file of result.files) io.err(`read ${displayPath(file)}`);
    io.err(`validated ${result.resources.length} resources in ${result.files.length} files in ${Date.now() - started} ms`);
  }
  setup.finish();
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  const warnings = result.diagnostics.filter((d) => d.severity === 'warning');
  if (opts.json) {
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
    for (const line of formatDiagnostics(result.diagnostics)) io.err(redactor.redact(line));
    if (!opts.quiet) {
      const status = errors.length === 0 ? 'valid' : 'invalid';
      const summary = `${result.resources.length} resources in ${result.files.length} files: ${status} (${errors.length} errors, ${warnings.length} warnings)`;
      // Success is the command's result, as `plan` prints its plan: stdout. A failed run's summary
      // stays with its diagnostics on stderr.
      if (errors.length === 0) io.out(summary);
      else io.err(summary);
    }
  }
  return hasErrors(result.diagnostics) ? 1 : 0;
}
