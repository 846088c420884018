import type { Resource } from '../../manifest/types.js';
import type { AdapterContext, KindAdapter, LiveObject } from '../types.js';
import { AREAS } from '../../client/areas.js';

const KIND = 'IntegrationPackage';
const PACKAGES = '/api/fleet/epm/packages';

/**
 * A Fleet integration package installed at a pinned version (wire-facts 7). metadata.name is the
 * package name; `spec.version` the version that must be installed; `spec.keep_policies_up_to_date`
 * the package setting of that name (false unless set).
 *
 * - The installed version is read from `installationInfo.version`, never from `status` or the
 *   item's `version`: `status` says `installed` whatever version is, and the list item's `version`
 *   is the registry's latest (wire-facts 7 quirk; the provider's issue #1585).
 * - Install state is deployment-wide. A package belongs to the space it was installed from
 *   (`installationInfo.installed_kibana_space_id`, or one of `additional_spaces_installed_kibana`);
 *   in any other space it is listed read-only, so a manifest in the wrong space is a plan error and
 *   a manage scope there never uninstalls it.
 * - Installing a version older than the registry's latest needs `force` (service-api.md: "an
 *   older pinned version needs `force`"); a downgrade always does. svcform sends `force: true`
 *   exactly then, and never for the latest version.
 * - After the install POST, the package is read back until `installationInfo` shows the wanted
 *   version `installed` (wire-facts 7: install is asynchronous in effect; the provider polls the
 *   same way). `install_failed`, another version, or no end within the wait is an error. No bulk
 *   operation is used.
 * - Uninstall only when owned, and the plan refuses it while a package policy still names the
 *   package (PackagePolicy references it); the server refuses it too. Packages the server installs
 *   by itself are never owned (SERVER_INSTALLED).
 */

interface DesiredPackage {
  version: string;
  keep_policies_up_to_date: boolean;
}

/**
 * Packages whose installation the server creates with keep_policies_up_to_date true
 * (AUTO_UPGRADE_POLICIES_PACKAGES of fleet common/constants/epm.ts, used by the installer's
 * createInstallation): the default of a manifest that leaves the setting out.
 */
const KEPT_UP_TO_DATE = ['apm', 'synthetics', 'cloud_security_posture', 'cloud_asset_inventory'];

/**
 * Packages the server installs by itself, so that a manage scope on IntegrationPackage never
 * uninstalls them undeclared (a manifest still pins and updates them):
 * - Fleet's agent policy create (services/agent_policies/agent_policy_create.ts
 *   createAgentPolicyWithPackages) installs `elastic_agent` for a policy with `monitoring_enabled`
 *   and `fleet_server` for one with `has_fleet_server`; an update that switches monitoring on
 *   installs `elastic_agent` (services/agent_policy.ts update).
 * - The security app's prebuilt-rule bootstrap and initialization flows install
 *   `security_detection_engine`, `endpoint` and `security_ai_prompts`
 *   (detection_engine/prebuilt_rules/logic/integrations/install_*.ts).
 * Uninstalling one would remove what agents or prebuilt rules use, and the server installs it
 * again at its next occasion: a delete every plan. `system` is not among them: Fleet installs it
 * only when asked (`sys_monitoring`), with a package policy that keeps it installed.
 */
const SERVER_INSTALLED: Record<string, string> = {
  elastic_agent: 'Fleet installs it for agent policies with monitoring',
  fleet_server: 'Fleet installs it for Fleet Server policies',
  security_detection_engine: 'the security app installs it for prebuilt rules',
  endpoint: 'the security app installs it for Elastic Defend',
  security_ai_prompts: 'the security app installs it for its AI prompts',
};

function desired(name: string, spec: Record<string, any>): DesiredPackage {
  return { version: spec.version, keep_policies_up_to_date: spec.keep_policies_up_to_date ?? KEPT_UP_TO_DATE.includes(name) };
}

function installedFrom(item: Record<string, any>): string[] {
  const info = item.installationInfo ?? {};
  return [info.installed_kibana_space_id ?? 'default', ...Object.keys(info.additional_spaces_installed_kibana ?? {})];
}

/** Version segments compared numerically; a prerelease suffix sorts before its release. */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const [core, pre] = v.split('-', 2);
    return { nums: core.split('.').map((n) => Number(n) || 0), pre };
  };
  const pa = split(a);
  const pb = split(b);
  for (let i = 0; i < Math.max(pa.nums.length, pb.nums.length); i++) {
    const d = (pa.nums[i] ?? 0) - (pb.nums[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  if (pa.pre === pb.pre) return 0;
  if (pa.pre === undefined) return 1;
  if (pb.pre === undefined) return -1;
  return pa.pre < pb.pre ? -1 : 1;
}

/** The registry's latest version of a package (one GET of the package without a version). */
async function latestVersion(ctx: AdapterContext, space: string, name: string): Promise<string> {
  const res = await ctx.api.request({ method: 'GET', path: `${PACKAGES}/${encodeURIComponent(name)}`, space });
  return res.body?.item?.version;
}

async function install(ctx: AdapterContext, space: string, name: string, version: string, latest: string): Promise<void> {
  const force = compareVersions(version, latest) < 0;
  ctx.log(`install ${name} ${version}${force ? ' (force: older than the latest version ' + latest + ')' : ''}`);
  await ctx.api.request({
    method: 'POST',
    path: `${PACKAGES}/${encodeURIComponent(name)}/${encodeURIComponent(version)}`,
    space,
    body: { force },
    // Installing the same version again changes nothing (the server skips it without force).
    idempotent: true,
  });
  await awaitInstalled(ctx, space, name, version);
}

/** How long an install is waited for (tests shorten it). */
export const INSTALL_WAIT = { attempts: 60, delayMs: 1000 };

/** Reads the package back until the wanted version is installed; throws when it will not be. */
async function awaitInstalled(ctx: AdapterContext, space: string, name: string, version: string): Promise<void> {
  for (let attempt = 1; attempt <= INSTALL_WAIT.attempts; attempt++) {
    const res = await ctx.api.request({ method: 'GET', path: `${PACKAGES}/${encodeURIComponent(name)}/${encodeURIComponent(version)}`, space });
    const info = res.body?.item?.installationInfo;
    const status = info?.install_status;
    if (status === 'install_failed') {
      const reason = info.latest_install_failed_attempts?.[0]?.error?.message;
      throw new Error(`installing ${name} ${version} failed${reason ? `: ${reason}` : ''}`);
    }
    if (status === 'installed') {
      // The #1585 trap: `status` says installed whatever version is; the version must match.
      if (info.version !== version) throw new Error(`installing ${name} ${version}: the server reports version ${info.version} installed`);
      return;
    }
    ctx.log(`${name} ${version}: ${status ?? 'not installed yet'} (${attempt}/${INSTALL_WAIT.attempts})`);
    await new Promise((resolve) => setTimeout(resolve, INSTALL_WAIT.delayMs));
  }
  throw new Error(`installing ${name} ${version}: not installed after ${INSTALL_WAIT.attempts} checks`);
}

async function setKeepPoliciesUpToDate(ctx: AdapterContext, space: string, name: string, version: string, keep: boolean): Promise<void> {
  await ctx.api.request({
    method: 'PUT',
    path: `${PACKAGES}/${encodeURIComponent(name)}/${encodeURIComponent(version)}`,
    space,
    body: { keepPoliciesUpToDate: keep },
  });
}

export const integrationPackageAdapter: KindAdapter = {
  kind: KIND,
  schema: 'IntegrationPackage.schema.json',
  area: AREAS.fleet,

  references() {
    return [];
  },

  async list(ctx: AdapterContext, space: string): Promise<LiveObject[]> {
    // One request: the package list carries installationInfo for every installed package.
    const res = await ctx.api.request({ method: 'GET', path: PACKAGES, space });
    const items: Array<Record<string, any>> = res.body?.items ?? [];
    return items
      .filter((item) => item.installationInfo?.version)
      .map((item) => {
        const spaces = installedFrom(item);
        return {
          kind: KIND,
          space,
          name: item.name,
          body: item,
          ...(spaces.includes(space) ? {} : { readOnly: `installed from space ${spaces[0]} (install state is deployment-wide: declare the package in that space)` }),
          ...(SERVER_INSTALLED[item.name] ? { serverOwned: `${SERVER_INSTALLED[item.name]}; a manage scope never uninstalls it (declare it to pin its version)` } : {}),
        };
      });
  },

  normalizeDesired(res: Resource) {
    return { ...desired(res.name, res.spec) };
  },

  normalizeLive(live: LiveObject) {
    const info = live.body.installationInfo ?? {};
    // A version still installing or whose install failed is not the pinned version installed: it
    // shows as a change, so apply installs it again.
    const version = !info.install_status || info.install_status === 'installed' ? info.version : `${info.version} (${info.install_status})`;
    return { version, keep_policies_up_to_date: info.keep_policies_up_to_date === true };
  },

  async create(ctx: AdapterContext, res: Resource) {
    const want = desired(res.name, res.spec);
    await install(ctx, res.space, res.name, want.version, await latestVersion(ctx, res.space, res.name));
    if (want.keep_policies_up_to_date) await setKeepPoliciesUpToDate(ctx, res.space, res.name, want.version, true);
  },

  async update(ctx: AdapterContext, res: Resource, live: LiveObject) {
    const want = desired(res.name, res.spec);
    const have = integrationPackageAdapter.normalizeLive(live, ctx.run);
    // (A failed or unfinished install of the wanted version differs too, and is installed again.)
    // The list item's `version` is the registry's latest (`latestVersion` on newer servers).
    const latest = live.body.latestVersion ?? live.body.version ?? (await latestVersion(ctx, res.space, res.name));
    if (want.version !== have.version) await install(ctx, live.space, res.name, want.version, latest);
    // An install keeps the setting (it lives on the installation, not on a version).
    if (want.keep_policies_up_to_date !== have.keep_policies_up_to_date) {
      await setKeepPoliciesUpToDate(ctx, live.space, res.name, want.version, want.keep_policies_up_to_date);
    }
  },

  async delete(ctx: AdapterContext, live: LiveObject) {
    const version = live.body.installationInfo?.version;
    const res = await ctx.api.request({
      method: 'DELETE',
      path: `${PACKAGES}/${encodeURIComponent(live.name)}/${encodeURIComponent(version)}`,
      space: live.space,
      accept: [400, 404],
    });
    // Gone already: 404, or 400 "<name> is not installed" (wire-facts 7). Any other 400 is an error.
    if (res.status === 400 && res.body?.message !== `${live.name} is not installed`) {
      throw new Error(`uninstalling ${live.name} ${version}: HTTP 400 ${res.body?.message ?? ''}`.trim());
    }
  },

  toSpec(live: LiveObject) {
    const info = live.body.installationInfo ?? {};
    const keep = info.keep_policies_up_to_date === true;
    return { spec: { version: info.version, ...(keep !== KEPT_UP_TO_DATE.includes(live.name) ? { keep_policies_up_to_date: keep } : {}) } };
  },
};
