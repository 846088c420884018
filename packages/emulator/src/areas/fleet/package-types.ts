/**
 * A package as the emulator's package manager reads it from its registry (package-registry.ts):
 * policy templates with inputs, data streams with one stream per input type, variable definitions
 * with defaults. Package policies are expanded from it as the real server expands them from
 * registry package info. package-spec.ts makes it from a package's manifests.
 */

export type VarType = 'text' | 'bool' | 'integer' | 'yaml' | 'password' | 'select' | 'textarea';

export interface VarDef {
  name: string;
  type: VarType;
  title: string;
  description?: string;
  multi?: boolean;
  required?: boolean;
  show_user?: boolean;
  secret?: boolean;
  default?: unknown;
}

export interface CatalogInput {
  type: string;
  title: string;
  description: string;
  vars?: VarDef[];
}

export interface CatalogPolicyTemplate {
  name: string;
  title: string;
  description: string;
  /** false: the package may be added at most once per agent policy ("limited" packages). */
  multiple?: boolean;
  inputs: CatalogInput[];
  /** The paths (folders) of the data streams this template's inputs collect; all when absent. */
  data_streams?: string[];
  /**
   * An input package's template as its manifest declares it, which is how package info answers it
   * (one `input`, its data stream `type`, `template_path` and `vars`, no `inputs`).
   */
  declared?: { input: string; type: string; template_path: string; vars?: VarDef[] };
}

export interface CatalogStream {
  input: string;
  title: string;
  description: string;
  template_path: string;
  /** Absent means enabled by default. */
  enabled?: boolean;
  vars?: VarDef[];
}

export interface CatalogDataStream {
  type: 'logs' | 'metrics' | 'traces';
  dataset: string;
  /** Its folder in the package (what a policy template's data_streams name). */
  path?: string;
  title: string;
  streams?: CatalogStream[];
}

export interface CatalogPackage {
  name: string;
  version: string;
  title: string;
  description: string;
  /** `integration` packages bundle data streams; `input` packages configure one input. */
  type: 'integration' | 'input';
  categories: string[];
  owner: { github: string; type: 'elastic' | 'partner' | 'community' };
  format_version: string;
  kibana_version: string;
  /**
   * The agent versions the package needs (`conditions.agent.version`, a semver range such as
   * `^9.3.0`), when its manifest names any: what an agent policy's agent version fields are worked
   * out from (agent-version-conditions.ts).
   */
  agent_version?: string;
  policy_templates: CatalogPolicyTemplate[];
  data_streams: CatalogDataStream[];
  vars?: VarDef[];
  dependencies?: Array<{ name: string; version: string }>;
  /** The package's files, relative to its root (`data_stream/auth/fields/fields.yml`): its assets. */
  files: string[];
}

export const CATEGORY_TITLES: Record<string, string> = {
  aws: 'AWS',
  cloud: 'Cloud',
  custom: 'Custom',
  datastore: 'Database',
  edr_xdr: 'EDR/XDR',
  google_cloud: 'Google Cloud',
  iam: 'Identity and Access Management',
  message_queue: 'Message Queue',
  network: 'Network',
  observability: 'Observability',
  os_system: 'Operating System',
  security: 'Security',
};

/**
 * Semver order of package versions: `x.y.z`, a prerelease (`1.0.0-beta1`, `1.0.0-preview.2`)
 * before its release.
 */
export function compareVersions(a: string, b: string): number {
  const [coreA, preA] = splitPrerelease(a);
  const [coreB, preB] = splitPrerelease(b);
  const d = compareCores(coreA, coreB);
  if (d !== 0) return d;
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA < preB ? -1 : 1;
}

function splitPrerelease(v: string): [string, string | undefined] {
  const at = v.indexOf('-');
  return at < 0 ? [v, undefined] : [v.slice(0, at), v.slice(at + 1)];
}

function compareCores(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** Packages whose policy template may be added once per agent policy. */
export function isLimitedPackage(pkg: CatalogPackage): boolean {
  return pkg.policy_templates.some((t) => t.multiple === false);
}
