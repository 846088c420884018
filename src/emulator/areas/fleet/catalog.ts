/**
 * The emulator's package registry: a handful of integration packages as plain data, in the shape
 * the package manager reads from its registry (policy templates with inputs, data streams with one
 * stream per input type, variable definitions with defaults). Package policies are expanded from
 * this data exactly as the real server expands them from registry package info.
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
  policy_templates: CatalogPolicyTemplate[];
  data_streams: CatalogDataStream[];
  vars?: VarDef[];
  dependencies?: Array<{ name: string; version: string }>;
}

export const CATEGORY_TITLES: Record<string, string> = {
  custom: 'Custom',
  edr_xdr: 'EDR/XDR',
  observability: 'Observability',
  os_system: 'Operating System',
  security: 'Security',
};

const text = (name: string, title: string, def?: unknown, extra: Partial<VarDef> = {}): VarDef => ({ name, type: 'text', title, multi: false, required: false, show_user: true, ...(def !== undefined ? { default: def } : {}), ...extra });
const multi = (name: string, title: string, def?: unknown[], extra: Partial<VarDef> = {}): VarDef => ({ name, type: 'text', title, multi: true, required: false, show_user: true, ...(def !== undefined ? { default: def } : {}), ...extra });
const bool = (name: string, title: string, def: boolean): VarDef => ({ name, type: 'bool', title, multi: false, required: false, show_user: true, default: def });
const integer = (name: string, title: string, def: number): VarDef => ({ name, type: 'integer', title, multi: false, required: false, show_user: true, default: def });
const yaml = (name: string, title: string, def?: string): VarDef => ({ name, type: 'yaml', title, multi: false, required: false, show_user: false, ...(def !== undefined ? { default: def } : {}) });

const processors = yaml('processors', 'Processors');
const tags = (def: string[] = []) => multi('tags', 'Tags', def);
const period = (def = '10s') => text('period', 'Period', def, { required: true });
const ignoreOlder = text('ignore_older', 'Ignore events older than', '72h', { required: false });
const preserveOriginal = bool('preserve_original_event', 'Preserve original event', false);

function logfileStream(title: string, paths: string[], tagDefault: string[], withPreserve: boolean): CatalogStream {
  return {
    input: 'logfile',
    title,
    description: `Collect ${title.toLowerCase()}`,
    template_path: 'log.yml.hbs',
    vars: [
      ignoreOlder,
      multi('paths', 'Paths', paths, { required: true }),
      ...(withPreserve ? [preserveOriginal] : []),
      tags(tagDefault),
      processors,
    ],
  };
}

function winlogStream(channel: string): CatalogStream {
  return {
    input: 'winlog',
    title: `${channel} channel`,
    description: `Collect Windows ${channel} channel logs`,
    template_path: 'winlog.yml.hbs',
    vars: [preserveOriginal, text('event_id', 'Event ID'), ignoreOlder, text('language', 'Language ID', '0'), tags(), processors],
  };
}

function metricStream(title: string, extra: VarDef[] = [], options: { enabled?: boolean; period?: string; processors?: string } = {}): CatalogStream {
  return {
    input: 'system/metrics',
    title,
    description: `Collect ${title.toLowerCase()}`,
    template_path: 'stream.yml.hbs',
    ...(options.enabled === false ? { enabled: false } : {}),
    vars: [period(options.period), ...extra, tags(), yaml('processors', 'Processors', options.processors)],
  };
}

const MOUNT_FILTER = '- drop_event.when.regexp:\n    system.filesystem.mount_point: ^/(sys|cgroup|proc|dev|etc|host|lib|snap)($|/)\n';

/** The system package; 1.58.0 predates the `preserve_original_event` setting of the log streams. */
function systemPackage(version: string, withPreserve: boolean): CatalogPackage {
  return {
    name: 'system',
    version,
    title: 'System',
    description: 'Collect system logs and metrics from your servers with the agent.',
    type: 'integration',
    categories: ['observability', 'security', 'os_system'],
    owner: { github: 'svc/obs-infraobs-integrations', type: 'elastic' },
    format_version: '3.0.2',
    kibana_version: '^8.13.0 || ^9.0.0',
    policy_templates: [
      {
        name: 'system',
        title: 'System logs and metrics',
        description: 'Collect logs and metrics from System instances',
        multiple: true,
        inputs: [
          { type: 'logfile', title: 'Collect logs from System instances', description: 'Collecting System auth and syslog logs' },
          { type: 'winlog', title: 'Collect events from the Windows event log', description: 'Collecting events from the Windows event log' },
          {
            type: 'system/metrics',
            title: 'Collect metrics from System instances',
            description: 'Collecting System core, cpu, diskio, filesystem, fsstat, load, memory, network, process, process_summary, socket_summary and uptime metrics',
            vars: [text('system.hostfs', 'Proc Filesystem Directory')],
          },
          {
            type: 'httpjson',
            title: 'Collect logs from third-party REST API (experimental)',
            description: 'Collect Windows security events from a log collector REST API',
            vars: [
              text('url', 'URL of the REST API server', 'https://server.example.com:8089', { required: true }),
              text('username', 'REST API username'),
              { name: 'password', type: 'password', title: 'REST API password', multi: false, required: false, show_user: true },
              yaml('ssl', 'SSL Configuration', '#certificate_authorities:\n#  - /etc/pki/root/ca.pem\n'),
            ],
          },
        ],
      },
    ],
    data_streams: [
      { type: 'logs', dataset: 'system.application', title: 'Windows Application Events', streams: [winlogStream('Application')] },
      { type: 'logs', dataset: 'system.auth', title: 'System auth logs', streams: [logfileStream('System auth logs', ['/var/log/auth.log*', '/var/log/secure*'], ['system-auth'], withPreserve)] },
      { type: 'metrics', dataset: 'system.core', title: 'System core metrics', streams: [metricStream('System core metrics', [multi('core.metrics', 'Core metrics', ['percentages'])], { enabled: false })] },
      { type: 'metrics', dataset: 'system.cpu', title: 'System cpu metrics', streams: [metricStream('System cpu metrics', [multi('cpu.metrics', 'Cpu metrics', ['percentages', 'normalized_percentages'])])] },
      { type: 'metrics', dataset: 'system.diskio', title: 'System diskio metrics', streams: [metricStream('System diskio metrics', [multi('diskio.include_devices', 'Include devices')])] },
      { type: 'metrics', dataset: 'system.filesystem', title: 'System filesystem metrics', streams: [metricStream('System filesystem metrics', [multi('filesystem.ignore_types', 'List of filesystem types to ignore')], { period: '1m', processors: MOUNT_FILTER })] },
      { type: 'metrics', dataset: 'system.fsstat', title: 'System fsstat metrics', streams: [metricStream('System fsstat metrics', [], { period: '1m', processors: MOUNT_FILTER })] },
      { type: 'metrics', dataset: 'system.load', title: 'System load metrics', streams: [metricStream('System load metrics')] },
      { type: 'metrics', dataset: 'system.memory', title: 'System memory metrics', streams: [metricStream('System memory metrics')] },
      { type: 'metrics', dataset: 'system.network', title: 'System network metrics', streams: [metricStream('System network metrics', [multi('network.interfaces', 'Interfaces')])] },
      {
        type: 'metrics',
        dataset: 'system.process',
        title: 'System process metrics',
        streams: [
          metricStream('System process metrics', [
            integer('process.include_top_n.by_cpu', 'Process Include Top N By Cpu', 5),
            integer('process.include_top_n.by_memory', 'Process Include Top N By Memory', 5),
            bool('process.cmdline.cache.enabled', 'Enable cmdline cache', true),
            bool('process.cgroups.enabled', 'Enable cgroup reporting', false),
            multi('process.env.whitelist', 'Env whitelist'),
            bool('process.include_cpu_ticks', 'Include CPU Ticks', false),
            multi('processes', 'Processes', ['.*']),
          ]),
        ],
      },
      { type: 'metrics', dataset: 'system.process.summary', title: 'System process_summary metrics', streams: [metricStream('System process_summary metrics')] },
      {
        type: 'logs',
        dataset: 'system.security',
        title: 'Windows Security Events',
        streams: [
          winlogStream('Security'),
          {
            input: 'httpjson',
            title: 'Windows Security Events via REST API',
            description: 'Collect Windows security events from a log collector REST API',
            template_path: 'httpjson.yml.hbs',
            enabled: false,
            vars: [text('interval', 'Interval to query the REST API', '10s', { required: true }), text('search', 'Search query', 'search sourcetype="XmlWinEventLog:Security"', { required: true }), tags(['forwarded']), preserveOriginal, processors],
          },
        ],
      },
      { type: 'metrics', dataset: 'system.socket_summary', title: 'System socket_summary metrics', streams: [metricStream('System socket_summary metrics')] },
      { type: 'logs', dataset: 'system.syslog', title: 'System syslog logs', streams: [logfileStream('System syslog logs', ['/var/log/messages*', '/var/log/syslog*', '/var/log/system*'], [], withPreserve)] },
      { type: 'logs', dataset: 'system.system', title: 'Windows System Events', streams: [winlogStream('System')] },
      { type: 'metrics', dataset: 'system.uptime', title: 'System uptime metrics', streams: [metricStream('System uptime metrics')] },
    ],
  };
}

export const CATALOG: CatalogPackage[] = [
  // Three versions, so pinning an older one, upgrading to one that is still not the latest, and
  // downgrading can all be exercised.
  systemPackage('1.58.0', false),
  systemPackage('1.59.1', true),
  systemPackage('1.60.0', true),
  {
    name: 'endpoint',
    version: '8.18.1',
    title: 'Endpoint Security',
    description: 'Protect your hosts and cloud workloads with threat prevention, detection, and deep security data visibility.',
    type: 'integration',
    categories: ['security', 'edr_xdr'],
    owner: { github: 'svc/security-defend-workflows', type: 'elastic' },
    format_version: '3.0.0',
    kibana_version: '^8.18.0 || ^9.0.0',
    policy_templates: [
      {
        name: 'endpoint',
        title: 'Endpoint Security Integration',
        description: 'Interact with the endpoint.',
        multiple: false,
        inputs: [{ type: 'endpoint', title: 'Endpoint Security', description: 'Interact with the endpoint.' }],
      },
    ],
    data_streams: [
      { type: 'logs', dataset: 'endpoint.alerts', title: 'Endpoint alerts' },
      { type: 'logs', dataset: 'endpoint.events.file', title: 'Endpoint file events' },
      { type: 'logs', dataset: 'endpoint.events.network', title: 'Endpoint network events' },
      { type: 'logs', dataset: 'endpoint.events.process', title: 'Endpoint process events' },
      { type: 'metrics', dataset: 'endpoint.metadata', title: 'Endpoint metadata' },
      { type: 'metrics', dataset: 'endpoint.metrics', title: 'Endpoint metrics' },
      { type: 'metrics', dataset: 'endpoint.policy', title: 'Endpoint policy response' },
    ],
  },
  {
    name: 'hostquery_manager',
    version: '1.14.0',
    title: 'Hostquery Manager',
    description: 'Centrally manage host query deployments, run live queries, and schedule recurring queries.',
    type: 'integration',
    categories: ['security', 'os_system'],
    owner: { github: 'svc/security-defend-workflows', type: 'elastic' },
    format_version: '3.0.0',
    kibana_version: '^8.12.0 || ^9.0.0',
    policy_templates: [
      {
        name: 'hostquery_manager',
        title: 'Hostquery Manager',
        description: 'Send interactive or scheduled queries to the host query agents',
        multiple: false,
        inputs: [{ type: 'hostquery', title: 'Hostquery', description: 'Send interactive or scheduled queries to the host query agents' }],
      },
    ],
    data_streams: [
      {
        type: 'logs',
        dataset: 'hostquery_manager.result',
        title: 'Hostquery results',
        streams: [{ input: 'hostquery', title: 'Hostquery results', description: 'Results of host queries', template_path: 'stream.yml.hbs' }],
      },
    ],
  },
  {
    name: 'log',
    version: '2.4.3',
    title: 'Custom Logs',
    description: 'Collect custom log files with the agent.',
    type: 'input',
    categories: ['custom', 'observability'],
    owner: { github: 'svc/integrations', type: 'elastic' },
    format_version: '3.0.0',
    kibana_version: '^8.13.0 || ^9.0.0',
    policy_templates: [
      {
        name: 'logs',
        title: 'Custom log file',
        description: 'Collect your custom log files.',
        multiple: true,
        inputs: [{ type: 'logfile', title: 'Custom log file', description: 'Collect your custom log files.' }],
      },
    ],
    data_streams: [
      {
        type: 'logs',
        dataset: 'log.logs',
        title: 'Custom log file',
        streams: [
          {
            input: 'logfile',
            title: 'Custom log file',
            description: 'Collect your custom log files.',
            template_path: 'input.yml.hbs',
            vars: [
              multi('paths', 'Log file path', undefined, { required: true }),
              multi('exclude_files', 'Exclude files'),
              text('data_stream.dataset', 'Dataset name', 'generic', { required: true }),
              text('ignore_older', 'Ignore events older than'),
              tags(),
              processors,
              yaml('custom', 'Custom configurations'),
            ],
          },
        ],
      },
    ],
  },
];

/** Semver-ish comparison of `x.y.z` versions (the catalog has no prereleases). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

export function catalogVersions(name: string): CatalogPackage[] {
  return CATALOG.filter((p) => p.name === name).sort((a, b) => compareVersions(a.version, b.version));
}

export function findPackage(name: string, version: string): CatalogPackage | undefined {
  return CATALOG.find((p) => p.name === name && p.version === version);
}

export function latestPackage(name: string): CatalogPackage | undefined {
  const versions = catalogVersions(name);
  return versions[versions.length - 1];
}

export function catalogNames(): string[] {
  return [...new Set(CATALOG.map((p) => p.name))].sort();
}

/** Packages whose policy template may be added once per agent policy. */
export function isLimitedPackage(pkg: CatalogPackage): boolean {
  return pkg.policy_templates.some((t) => t.multiple === false);
}
