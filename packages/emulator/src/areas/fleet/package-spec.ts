import type { CatalogDataStream, CatalogPackage, CatalogPolicyTemplate, CatalogStream, VarDef } from './package-types.js';

/**
 * A package in the registry's shape (the package-spec manifests: `manifest.yml` with its
 * `data_stream/<ds>/manifest.yml` files folded into `data_streams`, as the package registry's
 * `/package/<name>/<version>/` answers) turned into what the package manager works from. Only the
 * parts the emulator needs are read: identity, policy templates and their inputs, data streams and
 * their streams, and variable definitions.
 */

export class PackageFormatError extends Error {}

type Raw = Record<string, any>;

const isObject = (v: unknown): v is Raw => !!v && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Raw[] => (Array.isArray(v) ? v.filter(isObject) : []);
const text = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : v === undefined || v === null ? fallback : String(v));

function need(raw: Raw, key: string, where: string): string {
  const v = raw[key];
  if (typeof v !== 'string' || v === '') throw new PackageFormatError(`${where}: ${key} is required`);
  return v;
}

/** A variable definition; the title falls back to the name (messages name the variable by its title). */
function varDef(raw: Raw, where: string): VarDef {
  const name = need(raw, 'name', where);
  return {
    name,
    type: text(raw.type, 'text') as VarDef['type'],
    title: text(raw.title, name),
    ...(raw.description !== undefined ? { description: text(raw.description) } : {}),
    multi: raw.multi === true,
    required: raw.required === true,
    show_user: raw.show_user === true,
    // The registry's var definition carries `secret` (package-spec vars.items.properties.secret).
    ...(raw.secret === true ? { secret: true } : {}),
    ...(raw.default !== undefined && raw.default !== null ? { default: raw.default } : {}),
  };
}

const varDefs = (v: unknown, where: string): VarDef[] | undefined => (Array.isArray(v) ? list(v).map((d) => varDef(d, where)) : undefined);

function stream(raw: Raw, where: string): CatalogStream {
  const input = need(raw, 'input', where);
  const vars = varDefs(raw.vars, `${where} stream ${input}`);
  return {
    input,
    title: text(raw.title, input),
    description: text(raw.description),
    template_path: text(raw.template_path, 'stream.yml.hbs'),
    ...(raw.enabled === false ? { enabled: false } : {}),
    ...(vars ? { vars } : {}),
  };
}

/** A data stream; its dataset defaults to `<package>.<folder>`, as package-spec says. */
function dataStream(raw: Raw, pkgName: string): CatalogDataStream {
  const folder = text(raw.path);
  const dataset = text(raw.dataset) || `${pkgName}.${folder}`;
  const type = text(raw.type, 'logs') as CatalogDataStream['type'];
  const streams = list(raw.streams).map((s) => stream(s, `data stream ${dataset}`));
  return { type, dataset, ...(folder ? { path: folder } : {}), title: text(raw.title, dataset), ...(streams.length ? { streams } : {}) };
}

/**
 * An input package's one policy template configures one input; the server adds a
 * `data_stream.dataset` variable (default `<package>.<template>`) when the package declares none,
 * and the emulator models the template as a data stream of that dataset with one stream.
 */
function inputPackageParts(pkgName: string, raw: Raw[]): { templates: CatalogPolicyTemplate[]; streams: CatalogDataStream[] } {
  const templates: CatalogPolicyTemplate[] = [];
  const streams: CatalogDataStream[] = [];
  for (const t of raw) {
    const name = need(t, 'name', `${pkgName} policy template`);
    const input = need(t, 'input', `${pkgName} policy template ${name}`);
    const declaredVars = varDefs(t.vars, `${pkgName} policy template ${name}`);
    const vars = [...(declaredVars ?? [])];
    if (!vars.some((v) => v.name === 'data_stream.dataset')) {
      vars.push({ name: 'data_stream.dataset', type: 'text', title: 'Dataset name', multi: false, required: true, show_user: true, default: `${pkgName}.${name}` });
    }
    const declared = { input, type: text(t.type, 'logs'), template_path: text(t.template_path, 'input.yml.hbs'), ...(declaredVars ? { vars: declaredVars } : {}) };
    templates.push({ name, title: text(t.title, name), description: text(t.description), ...(t.multiple === false ? { multiple: false } : {}), inputs: [{ type: input, title: text(t.title, name), description: text(t.description) }], declared });
    streams.push({
      type: text(t.type, 'logs') as CatalogDataStream['type'],
      dataset: `${pkgName}.${name}`,
      title: text(t.title, name),
      streams: [{ input, title: text(t.title, name), description: text(t.description), template_path: text(t.template_path, 'input.yml.hbs'), vars }],
    });
  }
  return { templates, streams };
}

function integrationTemplates(pkgName: string, raw: Raw[]): CatalogPolicyTemplate[] {
  return raw.map((t) => {
    const name = need(t, 'name', `${pkgName} policy template`);
    return {
      name,
      title: text(t.title, name),
      description: text(t.description),
      ...(t.multiple === false ? { multiple: false } : {}),
      ...(Array.isArray(t.data_streams) ? { data_streams: t.data_streams.map((d: unknown) => text(d)) } : {}),
      inputs: list(t.inputs).map((i) => {
        const type = need(i, 'type', `${pkgName} policy template ${name} input`);
        const vars = varDefs(i.vars, `${pkgName} input ${type}`);
        return { type, title: text(i.title, type), description: text(i.description), ...(vars ? { vars } : {}) };
      }),
    };
  });
}

/** `conditions.agent.version` (or the dotted key, as `kibana.version` may be written), when given. */
function agentVersion(conditions: unknown): { agent_version?: string } {
  if (!isObject(conditions)) return {};
  const v = isObject(conditions.agent) ? conditions.agent.version : conditions['agent.version'];
  return typeof v === 'string' && v.trim() !== '' ? { agent_version: v.trim() } : {};
}

/** `raw`: the package manifest plus `data_streams` (each with `path`, its folder) and `files`. */
export function packageFromRegistryShape(raw: unknown, files: string[]): CatalogPackage {
  if (!isObject(raw)) throw new PackageFormatError('the package manifest is not a mapping');
  const name = need(raw, 'name', 'package');
  const version = need(raw, 'version', name);
  const type = text(raw.type, 'integration');
  if (type !== 'integration' && type !== 'input') throw new PackageFormatError(`${name}-${version}: type ${type} is not served (integration and input packages are)`);
  const owner = isObject(raw.owner) ? raw.owner : {};
  const common = {
    name,
    version,
    title: text(raw.title, name),
    description: text(raw.description),
    categories: Array.isArray(raw.categories) ? raw.categories.map((c: unknown) => text(c)) : [],
    owner: { github: text(owner.github), type: (text(owner.type, 'community') as CatalogPackage['owner']['type']) },
    format_version: text(raw.format_version, '3.0.0'),
    kibana_version: text(raw.conditions?.kibana?.version ?? raw.conditions?.['kibana.version']),
    ...agentVersion(raw.conditions),
    files,
    ...(Array.isArray(raw.dependencies) ? { dependencies: list(raw.dependencies).map((d) => ({ name: text(d.name), version: text(d.version) })) } : {}),
  };
  if (type === 'input') {
    const { templates, streams } = inputPackageParts(name, list(raw.policy_templates));
    return { ...common, type: 'input', policy_templates: templates, data_streams: streams };
  }
  const vars = varDefs(raw.vars, `${name} package`);
  return {
    ...common,
    type: 'integration',
    policy_templates: integrationTemplates(name, list(raw.policy_templates)),
    data_streams: list(raw.data_streams).map((ds) => dataStream(ds, name)),
    ...(vars ? { vars } : {}),
  };
}
