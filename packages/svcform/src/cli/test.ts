import { writeFileSync } from 'node:fs';
import { hasErrors, loadAndValidate } from '../manifest/validate.js';
import { formatDiagnostics } from '../manifest/diagnostic-lines.js';
import { redactor } from '../manifest/redact.js';
import type { Diagnostic } from '../manifest/types.js';
import { readConfig, UsageError, type CommonOptions, type Io } from './context.js';
import { setUpValidation } from './validation-setup.js';
import { findTestFiles, readTestFile, type RuleTests } from './test-files.js';
import { runRuleTests, type RuleResult } from './test-run.js';
import { junitXml } from './junit.js';

export interface TestOptions extends CommonOptions {
  json?: boolean;
  junit?: string;
}

/**
 * `svcform test [PATH...]`: the rule tests (*.test.yaml) under PATHs, run offline against the
 * rules the manifests under the same PATHs declare. Exit 0 when every case passes, 1 otherwise
 * (a failed case, an invalid manifest or test file, or no test file at all).
 */
export async function testCommand(paths: string[], opts: TestOptions, io: Io): Promise<number> {
  const config = readConfig(opts, paths);
  const setup = await setUpValidation(opts, config, io);
  const validated = await loadAndValidate(paths, { ...setup.options, offlineSecrets: true });
  const diagnostics: Diagnostic[] = [...validated.diagnostics];
  const suites: RuleTests[] = [];
  const files = findTestFiles(paths);
  for (const file of files) {
    const read = readTestFile(file);
    diagnostics.push(...read.diagnostics);
    suites.push(...read.tests);
  }
  for (const line of formatDiagnostics(opts.quiet ? diagnostics.filter((d) => d.severity === 'error') : diagnostics)) io.err(redactor.redact(line));
  setup.finish();
  if (hasErrors(diagnostics)) {
    const n = diagnostics.filter((d) => d.severity === 'error').length;
    throw new UsageError(`${n} error${n === 1 ? '' : 's'} in the manifests or test files; no test was run`);
  }
  if (files.length === 0) throw new UsageError(`no rule test files (*.test.yaml) under ${paths.join(', ')}`);
  const results: RuleResult[] = [];
  for (const suite of suites) results.push(await runRuleTests(suite, validated.resources));
  if (opts.junit) writeFileSync(opts.junit, junitXml(results));
  const cases = results.flatMap((r) => r.cases);
  const failed = cases.filter((c) => !c.passed).length;
  if (opts.json) {
    io.out(JSON.stringify({ passed: failed === 0, cases: cases.length, failed, rules: results }, null, 2));
  } else {
    for (const r of results) {
      if (!opts.quiet || r.cases.some((c) => !c.passed)) io.out(`Rule/${r.rule} (${r.file}:${r.line})`);
      for (const c of r.cases) {
        if (c.passed) {
          if (!opts.quiet) io.out(`  ok    ${c.name}`);
        } else {
          io.out(`  FAIL  ${c.name}`);
          io.out(`        ${c.message}`);
        }
      }
    }
    const summary = `${results.length} rule${results.length === 1 ? '' : 's'}, ${cases.length} case${cases.length === 1 ? '' : 's'}: ${cases.length - failed} passed, ${failed} failed`;
    io.out(summary);
  }
  return failed === 0 ? 0 : 1;
}
