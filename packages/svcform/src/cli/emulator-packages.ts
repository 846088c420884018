import { existsSync, statSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';
import { UsageError } from './usage-error.js';

/**
 * Where the emulator's Fleet package registry reads packages, for `svcform emulator` and for the
 * embedded target alike: folders of packages (`--packages`, else SVC_EMULATOR_PACKAGES, a list
 * separated like PATH, else `emulator.packages` of svcform.yaml) read before the registry, and an
 * HTTP package registry (`--registry`, else SVC_EMULATOR_REGISTRY, else `emulator.registry`) read
 * instead of the packages bundled with svcform.
 */
export interface EmulatorPackageOptions {
  packageDirs: string[];
  registryUrl?: string;
}

export function emulatorPackageOptions(
  flags: { packages?: string[]; registry?: string },
  env: NodeJS.ProcessEnv,
  config: { packages?: string[]; registry?: string } | undefined,
): EmulatorPackageOptions {
  const fromEnv = env.SVC_EMULATOR_PACKAGES ? env.SVC_EMULATOR_PACKAGES.split(delimiter).filter(Boolean) : undefined;
  const dirs = (flags.packages?.length ? flags.packages : fromEnv ?? config?.packages ?? []).map((d) => resolve(d));
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--packages: ${dir} is not a folder (it holds one <name>-<version>/ folder per package)`);
  }
  const registryUrl = flags.registry ?? env.SVC_EMULATOR_REGISTRY ?? config?.registry;
  if (registryUrl !== undefined) {
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(registryUrl).protocol);
    } catch {
      ok = false;
    }
    if (!ok) throw new UsageError(`--registry must be an http:// or https:// URL of a package registry, not ${JSON.stringify(registryUrl)}`);
  }
  return { packageDirs: dirs, ...(registryUrl ? { registryUrl } : {}) };
}
