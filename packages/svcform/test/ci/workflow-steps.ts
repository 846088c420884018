import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { CLI_PATH } from '../helpers/spawn-cli.js';
import { TEST_CACHE_HOME } from '../helpers/cache-home.js';

/**
 * Runs the `run:` script of a step of the kit's workflows as the runner does (`bash -e`, in the
 * workspace, with the workflow's and the step's `env:`), with `svcform` on PATH being the built
 * CLI. Expressions are those the kit's steps use: `secrets.*` (from `secrets`, empty when not
 * given, as GitHub does), `github.workspace`, `steps.<id>.outputs.*` (what earlier steps wrote to
 * $GITHUB_OUTPUT); any other is an error, so a new one gets a meaning here before a test relies on it.
 */
export const WORKFLOWS = resolve('examples/ci/github-actions/.github/workflows');

export interface StepRun {
  code: number;
  out: string;
  err: string;
}

export interface Runner {
  /** What each step (by id) wrote to $GITHUB_OUTPUT. */
  outputs: Record<string, Record<string, string>>;
  run(workflowFile: string, stepName: string, workspace: string): Promise<StepRun>;
}

const shimDir = (() => {
  let dir: string | undefined;
  return () => {
    if (dir) return dir;
    dir = mkdtempSync(join(tmpdir(), 'svcform-shim-'));
    writeFileSync(join(dir, 'svcform'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI_PATH)} "$@"\n`);
    chmodSync(join(dir, 'svcform'), 0o755);
    return dir;
  };
})();

export function workflowRunner(secrets: Record<string, string>): Runner {
  const outputs: Record<string, Record<string, string>> = {};
  const expression = (workspace: string) => (text: string) =>
    text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
      let m: RegExpExecArray | null;
      if ((m = /^secrets\.(\w+)$/.exec(expr))) return secrets[m[1]] ?? '';
      if (expr === 'github.workspace') return workspace;
      if ((m = /^steps\.(\w+)\.outputs\.(\w+)$/.exec(expr))) return outputs[m[1]]?.[m[2]] ?? '';
      throw new Error(`workflow-steps.ts does not know the expression ${expr}`);
    });
  return {
    outputs,
    async run(workflowFile, stepName, workspace) {
      const wf = parse(readFileSync(join(WORKFLOWS, workflowFile), 'utf8'));
      const step = Object.values(wf.jobs as Record<string, any>).flatMap((j) => j.steps).find((s: any) => s.name === stepName || s.id === stepName);
      if (!step?.run) throw new Error(`${workflowFile} has no run: step ${stepName}`);
      const expand = expression(workspace);
      const outputFile = join(mkdtempSync(join(tmpdir(), 'svcform-output-')), 'output');
      writeFileSync(outputFile, '');
      const env: NodeJS.ProcessEnv = { PATH: `${shimDir()}:${process.env.PATH}`, NO_COLOR: '1', XDG_CACHE_HOME: TEST_CACHE_HOME, GITHUB_OUTPUT: outputFile, GITHUB_REPOSITORY: 'acme/svc-config' };
      for (const [k, v] of Object.entries({ ...(wf.env ?? {}), ...(step.env ?? {}) })) env[k] = expand(String(v));
      const script = expand(step.run);
      const result = await new Promise<StepRun>((done, fail) => {
        const child = spawn('bash', ['-e', '-c', script], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.on('error', fail);
        child.on('close', (code) => done({ code: code ?? 1, out, err }));
      });
      if (step.id) {
        outputs[step.id] = {};
        for (const line of readFileSync(outputFile, 'utf8').split('\n')) {
          const at = line.indexOf('=');
          if (at > 0) outputs[step.id][line.slice(0, at)] = line.slice(at + 1);
        }
      }
      return result;
    },
  };
}
