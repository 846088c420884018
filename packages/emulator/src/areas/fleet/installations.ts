import type { EmulatorContext } from '../../context.js';
import { compareVersions, type CatalogPackage } from './package-types.js';
import { epmState } from './state.js';

/**
 * Packages installed with keep_policies_up_to_date true (fleet common/constants/epm.ts
 * AUTO_UPGRADE_POLICIES_PACKAGES, set by the installer's createInstallation).
 */
const KEPT_UP_TO_DATE = ['apm', 'synthetics', 'cloud_security_posture', 'cloud_asset_inventory'];

/**
 * Package installations (global to the deployment: a package is installed once, whatever the
 * space). Their own module because both the package manager's routes (epm.ts) and package-policy
 * writes (records.ts: a new policy installs its package) install, and each of those uses the other.
 */

export function install(ctx: EmulatorContext, space: string, pkg: CatalogPackage): { installType: 'install' | 'update' | 'reinstall' } {
  const state = epmState(ctx);
  const now = ctx.now().toISOString();
  const existing = state.installations[pkg.name];
  const installType = !existing ? 'install' : existing.version === pkg.version ? 'reinstall' : 'update';
  state.installations[pkg.name] = {
    name: pkg.name,
    version: pkg.version,
    install_status: 'installed',
    install_source: 'registry',
    installed_kibana_space_id: existing?.installed_kibana_space_id ?? space,
    keep_policies_up_to_date: existing?.keep_policies_up_to_date ?? KEPT_UP_TO_DATE.includes(pkg.name),
    ...(installType === 'update' ? { previous_version: existing!.version } : existing?.previous_version ? { previous_version: existing.previous_version } : {}),
    created_at: existing?.created_at ?? now,
    updated_at: now,
  };
  return { installType };
}

/** Installs the package when no version of it is installed (what updating a package policy does). */
export function ensureInstalled(ctx: EmulatorContext, space: string, pkg: CatalogPackage): void {
  if (!epmState(ctx).installations[pkg.name]) install(ctx, space, pkg);
}

/**
 * What creating a package policy does to the installation (fleet services/package_policy.ts create
 * calls epm/packages/install.ts ensureInstalledPackage with the policy's package version): nothing
 * when that version or a later one is installed (isPackageVersionOrLaterInstalled); otherwise the
 * policy's version is installed, forced over an older one.
 */
export function ensureVersionInstalled(ctx: EmulatorContext, space: string, pkg: CatalogPackage): void {
  const installed = epmState(ctx).installations[pkg.name];
  if (!installed || compareVersions(installed.version, pkg.version) < 0) install(ctx, space, pkg);
}

