import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { planToJson } from '../report/plan-json.js';
import { UsageError } from './context.js';

export const SAVED_PLAN_KIND = 'svcform-saved-plan';

/**
 * A saved plan keeps what the plan was computed from (paths and options) and the fingerprints of
 * the live and desired state, never the secret values themselves: `apply --plan` recomputes the
 * plan from the same inputs and refuses when either fingerprint changed.
 *
 * Paths are relative to the configuration root (the directory of svcform.yaml, else the working
 * directory), so a plan made in one CI job applies in another checkout of the same commit.
 */
export interface SavedPlan {
  kind: typeof SAVED_PLAN_KIND;
  inputs: {
    /** The configuration root as seen from the working directory of `plan` (`.`, `infra`...). */
    root?: string;
    /** Manifest paths, relative to the root (`-` for stdin). Absolute in plans saved before roots. */
    paths: string[];
    url?: string;
    space?: string;
    /** The configuration file, relative to the root; absent when there was none. */
    config?: string;
    /** `--root` (the folder files named by manifests must be in), relative to the root; absent when not given. */
    file_root?: string;
    select: string[];
    rotate_secrets: boolean;
    /** `--allow-space-delete`: the spaces the plan was approved to delete (absent in older plans: none). */
    allow_space_delete?: string[];
    /** `--env`: the svcform.yaml environment (target, credentials, overlays) the plan was made for. */
    environment?: string;
  };
  plan: ReturnType<typeof planToJson>;
}

const posix = (p: string) => p.split(sep).join('/') || '.';

/** The root a run uses: the directory of its configuration file, else the working directory. */
export function configurationRoot(configFile: string | undefined): string {
  return configFile ? dirname(resolve(configFile)) : process.cwd();
}

/** The inputs' paths as `plan --out` stores them: relative to the root. */
export function portableInputs(root: string, paths: string[], configFile: string | undefined, fileRoot?: string): Pick<SavedPlan['inputs'], 'root' | 'paths' | 'config' | 'file_root'> {
  return {
    root: posix(relative(process.cwd(), root)),
    paths: paths.map((p) => (p === '-' ? p : posix(relative(root, resolve(p))))),
    config: configFile ? posix(relative(root, resolve(configFile))) : undefined,
    ...(fileRoot !== undefined ? { file_root: posix(relative(root, resolve(fileRoot))) } : {}),
  };
}

/**
 * The saved inputs resolved in the current checkout. The root is found as `plan` found it: the
 * directory of `--config` when given; else where the root was relative to the working directory
 * (the usual CI job runs in the same directory of its checkout); else the working directory
 * itself (apply run from inside the root). With a configuration file, the root is the candidate
 * that holds it.
 */
export function resolveInputs(saved: SavedPlan, file: string, explicitConfig: string | undefined): { paths: string[]; config?: string; fileRoot?: string } {
  const inputs = saved.inputs;
  const fileRoot = (root: string) => (inputs.file_root === undefined ? {} : { fileRoot: resolve(root, inputs.file_root) });
  if (explicitConfig) {
    const root = configurationRoot(explicitConfig);
    return { paths: inputs.paths.map((p) => (p === '-' ? p : resolve(root, p))), config: resolve(explicitConfig), ...fileRoot(root) };
  }
  const candidates = [...new Set([resolve(inputs.root ?? '.'), process.cwd()])];
  const root = inputs.config === undefined || isAbsolute(inputs.config) ? candidates[0] : candidates.find((dir) => existsSync(resolve(dir, inputs.config!)));
  if (!root) {
    throw new UsageError(`cannot find ${inputs.config}, the configuration of the plan in ${file}, in ${candidates.join(' or ')}: run apply --plan from the directory plan ran in (or from the configuration root), or pass --config`);
  }
  return {
    paths: inputs.paths.map((p) => (p === '-' ? p : resolve(root, p))),
    config: inputs.config === undefined ? undefined : resolve(root, inputs.config),
    ...fileRoot(root),
  };
}

export function readSavedPlan(file: string): SavedPlan {
  let saved: SavedPlan;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read the saved plan ${file}: ${(err as Error).message}`);
  }
  if (saved?.kind !== SAVED_PLAN_KIND || !saved.inputs || !saved.plan?.fingerprint) throw new UsageError(`${file} is not a plan saved by svcform plan --out`);
  return saved;
}
