#!/usr/bin/env node
// Real configurations nobody here wrote: the acceptance-test configurations of the public Terraform
// provider for this API (`internal/**/testdata/**/*.tf` of a checkout), which its acceptance tests
// apply to real servers. Each resource of a kind svcform has is converted into a manifest, the way
// the provider turns its attributes into request bodies (its models.go), under an ignored folder;
// the folder is validated with the built CLI, then applied to the embedded emulator and planned
// again. A validate error, a failed write or a change planned after the apply is either a case
// where svcform or the emulator is stricter or looser than the server, or an expected failure the
// provider's test names (those directories are skipped), or a gap of this conversion: each is read
// by hand. Needs `npm run build`.
//
//   node packages/svcform/scripts/terraform-configs.mjs TF_CHECKOUT [--out DIR]
//
// Exit code: 0 (findings are to be read, not a failure of the script); 2 on bad usage.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml, stringify } from 'yaml';
import { parseHcl } from './terraform-hcl.mjs';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = resolve(outAt >= 0 ? args.splice(outAt, 2)[1] : join(packageRoot, '.corpus', 'terraform'));
const checkout = args[0];
if (!checkout) {
  console.error('usage: node packages/svcform/scripts/terraform-configs.mjs TF_CHECKOUT [--out DIR]');
  process.exit(2);
}

/** Test steps that expect the provider or the server to refuse them. */
const EXPECTED_FAILURE = /validation|invalid|conflict|missing|requires|ValidateConfig\/both|import_?only|importRejected/i;

const json = (v) => (typeof v === 'string' ? JSON.parse(v) : v);
const dropNulls = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
const seconds = (v) => (typeof v === 'string' ? Number.parseInt(v, 10) * ({ s: 1, m: 60, h: 3600, d: 86400 }[v.at(-1)] ?? 1) : v);

/** The neutral connector type ids of service-api.md for the vendor ones. */
const CONNECTOR_TYPES = { '.slack': '.chat', '.teams': '.team-chat', '.servicenow': '.ticketing', '.jira': '.issue-tracker' };

/** Per resource type: the kind, and the manifest the provider's body would be (undefined to skip). */
const CONVERSIONS = {
  elasticstack_kibana_security_detection_rule: { kind: 'Rule', convert: rule },
  elasticstack_kibana_action_connector: { kind: 'Connector', convert: connector },
  elasticstack_kibana_osquery_pack: { kind: 'HostQueryPack', convert: (a) => ({ spec: hostQuery(dropNulls({ ...a, name: undefined, space_id: undefined, pack_id: undefined }), true) }) },
  elasticstack_kibana_osquery_saved_query: { kind: 'HostQuerySavedQuery', convert: (a) => ({ spec: hostQuery(dropNulls({ ...a, saved_query_id: undefined, space_id: undefined }), false) }) },
  elasticstack_kibana_agentbuilder_tool: { kind: 'AgentTool', convert: tool },
  elasticstack_kibana_agentbuilder_agent: { kind: 'Agent', convert: agent },
  elasticstack_kibana_agentbuilder_workflow: { kind: 'AgentWorkflow', convert: (a) => (typeof a.configuration_yaml === 'string' ? { spec: { definition: parseYaml(a.configuration_yaml) } } : undefined) },
  elasticstack_fleet_agent_policy: { kind: 'AgentPolicy', convert: agentPolicy },
  elasticstack_fleet_output: { kind: 'FleetOutput', convert: output },
  elasticstack_kibana_data_view: { kind: 'DataView', convert: dataView },
  elasticstack_kibana_space: { kind: 'Space', convert: space },
};

function rule(a, blocks) {
  const s = dropNulls({ ...a, rule_id: undefined, space_id: undefined });
  if (s.type === 'esql') s.type = 'qlang';
  if (s.language === 'esql') s.language = 'qlang';
  for (const b of blocks) (s[b.type] ??= []).push(b.attrs);
  for (const [k, v] of Object.entries(s)) if (Array.isArray(v) && v.length === 0) delete s[k];
  if (s.filters !== undefined) s.filters = json(s.filters);
  if (Array.isArray(s.threat_filters)) s.threat_filters = s.threat_filters.map(json);
  if (Array.isArray(s.investigation_fields)) s.investigation_fields = { field_names: s.investigation_fields };
  const duration = /^(\d+)([smh])$/.exec(s.alert_suppression?.duration ?? '');
  if (duration) s.alert_suppression.duration = { value: Number(duration[1]), unit: duration[2] };
  for (const action of s.actions ?? []) {
    if (action.params !== undefined) action.params = json(action.params);
    if (action.frequency?.notify_when !== undefined) {
      action.frequency.notifyWhen = action.frequency.notify_when;
      delete action.frequency.notify_when;
    }
    const query = action.alerts_filter?.query;
    if (query) {
      query.filters = query.filters_json === undefined ? [] : json(query.filters_json);
      delete query.filters_json;
    }
    const timeframe = action.alerts_filter?.timeframe;
    if (timeframe?.hours_start !== undefined) {
      timeframe.hours = { start: timeframe.hours_start, end: timeframe.hours_end };
      delete timeframe.hours_start;
      delete timeframe.hours_end;
    }
  }
  for (const action of s.response_actions ?? []) {
    if (action.action_type_id === '.osquery') action.action_type_id = '.hostquery';
    for (const mapping of [action.params?.ecs_mapping, ...(action.params?.queries ?? []).map((q) => q.ecs_mapping)]) {
      for (const [k, v] of Object.entries(mapping ?? {})) if (typeof v === 'string') mapping[k] = { field: v };
    }
  }
  return { spec: s };
}

function connector(a) {
  const spec = { name: a.name, connector_type_id: CONNECTOR_TYPES[a.connector_type_id] ?? a.connector_type_id };
  // The provider keeps a marker of its own in the config it stores and never sends it.
  if (a.config !== undefined) spec.config = Object.fromEntries(Object.entries(json(a.config)).filter(([k]) => !k.startsWith('__tf_provider')));
  const secrets = a.secrets ?? a.secrets_wo;
  if (secrets !== undefined) spec.secrets = json(secrets);
  return { spec };
}

function hostQuery(s, pack) {
  const query = (q) => {
    if (Array.isArray(q.platform)) q.platform = q.platform.join(',');
    for (const m of Object.values(q.ecs_mapping ?? {})) {
      if (m?.values !== undefined) {
        m.value = m.values;
        delete m.values;
      }
    }
    return dropNulls(q);
  };
  if (pack) for (const [name, q] of Object.entries(s.queries ?? {})) s.queries[name] = query(q);
  return pack ? s : query(s);
}

function tool(a) {
  const spec = dropNulls({ type: a.type === 'esql' || a.type === undefined ? 'qlang' : a.type, description: a.description, tags: a.tags });
  if (a.configuration !== undefined) spec.configuration = json(a.configuration);
  return { spec, id: 'tool' };
}

function agent(a) {
  const spec = dropNulls({ name: a.name, description: a.description ?? '', avatar_color: a.avatar_color, avatar_symbol: a.avatar_symbol, labels: a.labels });
  spec.configuration = dropNulls({ instructions: a.instructions, tools: [{ tool_ids: a.tools ?? [] }], skill_ids: a.skill_ids });
  return { spec };
}

function agentPolicy(a) {
  const spec = dropNulls({
    name: a.name, namespace: a.namespace ?? 'default', description: a.description,
    inactivity_timeout: seconds(a.inactivity_timeout), unenroll_timeout: seconds(a.unenrollment_timeout),
    data_output_id: a.data_output_id, monitoring_output_id: a.monitoring_output_id, fleet_server_host_id: a.fleet_server_host_id,
    download_source_id: a.download_source_id, is_protected: a.is_protected, supports_agentless: a.supports_agentless,
    sys_monitoring: a.sys_monitoring || undefined,
  });
  spec.monitoring_enabled = [...(a.monitor_logs ? ['logs'] : []), ...(a.monitor_metrics ? ['metrics'] : [])];
  if (a.global_data_tags) spec.global_data_tags = Object.entries(a.global_data_tags).map(([name, v]) => ({ name, value: v.string_value ?? v.number_value }));
  return { spec, uniqueName: true };
}

function output(a) {
  const spec = dropNulls({
    name: a.name, type: a.type, hosts: a.hosts, is_default: a.default_integrations, is_default_monitoring: a.default_monitoring,
    config_yaml: a.config_yaml, ca_sha256: a.ca_sha256, ca_trusted_fingerprint: a.ca_trusted_fingerprint,
    write_to_logs_streams: a.write_to_logs_streams, sync_integrations: a.sync_integrations,
    sync_uninstalled_integrations: a.sync_uninstalled_integrations, service_token: a.service_token, ...(a.kafka ?? {}),
  });
  if (a.ssl) spec.ssl = dropNulls({ ...a.ssl });
  if (spec.ssl?.key) {
    spec.secrets = { ssl: { key: spec.ssl.key } };
    delete spec.ssl.key;
  }
  return { spec, uniqueName: true };
}

const DATA_VIEW_FIELDS = { time_field_name: 'timeFieldName', source_filters: 'sourceFilters', field_formats: 'fieldFormats', runtime_field_map: 'runtimeFieldMap', allow_no_index: 'allowNoIndex', field_attrs: 'fieldAttrs' };
function dataView(a, blocks) {
  const view = a.data_view ?? blocks.find((b) => b.type === 'data_view')?.attrs;
  if (!view) return undefined;
  const spec = {};
  for (const [k, v] of Object.entries(view)) if (!['id', 'namespaces'].includes(k) && v !== null) spec[DATA_VIEW_FIELDS[k] ?? k] = v;
  if (Array.isArray(spec.sourceFilters)) spec.sourceFilters = spec.sourceFilters.map((f) => (typeof f === 'string' ? { value: f } : f));
  for (const f of Object.values(spec.runtimeFieldMap ?? {})) {
    if (typeof f.script_source === 'string') {
      f.script = { source: f.script_source };
      delete f.script_source;
    }
  }
  for (const f of Object.values(spec.fieldFormats ?? {})) if (f.params) f.params = dropNulls(f.params);
  for (const [field, attrs] of Object.entries(spec.fieldAttrs ?? {})) {
    spec.fieldAttrs[field] = dropNulls({ customLabel: attrs.custom_label ?? attrs.customLabel, customDescription: attrs.custom_description ?? attrs.customDescription, count: attrs.count });
  }
  return { spec, uniqueTitle: true };
}

function space(a) {
  return { spec: dropNulls({ name: a.name, description: a.description, disabledFeatures: a.disabled_features, initials: a.initials, color: a.color, imageUrl: a.image_url, solution: a.solution }) };
}

/** Exception lists and their items, which the provider declares as resources of their own. */
function exceptionLists(resources, nameOf) {
  const lists = new Map();
  for (const r of resources.filter((r) => r.labels[0] === 'elasticstack_kibana_security_exception_list')) {
    const a = r.attrs;
    lists.set(r.labels[1], { ref: r, spec: dropNulls({ type: a.type, name: a.name, description: a.description, tags: a.tags, os_types: a.os_types, meta: a.meta, namespace_type: a.namespace_type }), items: [] });
  }
  for (const r of resources.filter((r) => r.labels[0] === 'elasticstack_kibana_security_exception_item')) {
    const a = dropNulls({ ...r.attrs, space_id: undefined });
    const owner = [...lists.values()].find((l) => String(a.list_id).startsWith(`tf-elasticstack-kibana-security-exception-list-${l.ref.labels[1].replace(/_/g, '-')}-`));
    const list = owner ?? { ref: r, spec: { type: 'detection', name: 'Items', description: 'Items of a list the configuration does not declare' }, items: [] };
    if (!owner) lists.set(`items:${r.labels[1]}`, list);
    if (a.namespace_type) list.spec.namespace_type ??= a.namespace_type;
    const entry = (e) => {
      const out = dropNulls({ ...e });
      if (out.values !== undefined) {
        out.value = out.values;
        delete out.values;
      }
      if (out.type === 'nested') {
        delete out.operator;
        out.entries = (out.entries ?? []).map(entry);
      }
      return out;
    };
    list.items.push(dropNulls({ ...a, list_id: undefined, namespace_type: undefined, item_id: `${a.item_id ?? 'item'}-${nameOf('item')}`, entries: (a.entries ?? []).map(entry) }));
  }
  return [...lists.values()].map((l) => ({ ref: l.ref, kind: 'ExceptionList', spec: { ...l.spec, ...(l.items.length ? { items: l.items } : {}) } }));
}

function tfFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? tfFiles(path) : entry.name.endsWith('.tf') && path.includes('/testdata/') ? [path] : [];
  });
}

rmSync(out, { recursive: true, force: true });
let counter = 0;
const nameOf = (prefix) => `${prefix}${++counter}`;
const written = {};
const unread = [];
for (const file of tfFiles(join(checkout, 'internal'))) {
  const where = relative(checkout, file);
  if (EXPECTED_FAILURE.test(where)) continue;
  let parsed;
  try {
    parsed = parseHcl(readFileSync(file, 'utf8'));
  } catch (error) {
    unread.push(`${where}: ${error.message}`);
    continue;
  }
  const resources = parsed.blocks.filter((b) => b.type === 'resource');
  const made = [];
  for (const r of resources) {
    const conversion = CONVERSIONS[r.labels[0]];
    const doc = conversion?.convert(r.attrs, r.blocks);
    if (doc) made.push({ ref: r, kind: conversion.kind, ...doc });
  }
  made.push(...exceptionLists(resources, nameOf));
  // Names the server keeps unique, and ids, are made unique across the files; a reference to a
  // resource of the same file (`elasticstack_..._connector.test.connector_id`) names its manifest.
  const names = new Map();
  for (const m of made) {
    m.name = m.id === 'tool' ? `tf.${nameOf('t')}` : nameOf('tf');
    names.set(`tf-${m.ref.labels[0].replace(/_/g, '-')}-${m.ref.labels[1].replace(/_/g, '-')}-`, m.name);
    if (m.uniqueName && typeof m.spec.name === 'string') m.spec.name = `${m.spec.name} ${m.name}`;
    if (m.uniqueTitle) {
      m.spec.title = `${m.spec.title}-${m.name}`;
      if (typeof m.spec.name === 'string') m.spec.name = `${m.spec.name} ${m.name}`;
    }
  }
  // A variable the file gives a default stands for it (the tests pass the others in at run time).
  const defaults = new Map(parsed.blocks.filter((b) => b.type === 'variable' && b.attrs.default !== undefined).map((b) => [`tf-${b.labels[0].replace(/[^A-Za-z0-9]+/g, '-')}`, b.attrs.default]));
  const resolved = (v) => {
    if (typeof v === 'string') {
      if (defaults.has(v)) return defaults.get(v);
      for (const [prefix, name] of names) if (v.startsWith(prefix)) return name;
      return v;
    }
    if (Array.isArray(v)) return v.map(resolved);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolved(x)]));
    return v;
  };
  for (const m of made) {
    const dir = join(out, m.kind);
    mkdirSync(dir, { recursive: true });
    const doc = { apiVersion: 'svcform/v1', kind: m.kind, metadata: { name: m.name }, spec: resolved(m.spec) };
    writeFileSync(join(dir, `${m.name}.yaml`), `# ${where} (${m.ref.labels.join(' ')})\n${stringify(doc, { lineWidth: 0 })}`);
    written[m.kind] = (written[m.kind] ?? 0) + 1;
  }
}

console.log(`converted: ${Object.entries(written).sort().map(([k, n]) => `${n} ${k}`).join(', ')}; ${unread.length} files not read (outside the HCL subset)`);
const cliPath = join(packageRoot, 'dist', 'src', 'cli', 'main.js');
/** The CLI in a child process, awaited: the emulator answers it from this process's event loop. */
const svcform = (...cliArgs) =>
  new Promise((done) => execFile(process.execPath, [cliPath, ...cliArgs], { encoding: 'utf8', maxBuffer: 1 << 28 }, (_error, stdout, stderr) => done({ stdout, stderr })));

// Manifests validate refuses are set aside (and shown), so that the others can be applied.
const validated = await svcform('validate', out, '--json');
const diagnostics = JSON.parse(validated.stdout || '{"diagnostics":[]}').diagnostics ?? [];
const aside = `${out}.refused`;
rmSync(aside, { recursive: true, force: true });
mkdirSync(aside, { recursive: true });
const refused = new Set();
let placeholders = 0;
for (const d of diagnostics.filter((d) => d.severity === 'error')) {
  if (d.file) refused.add(d.file);
  // A value the test passes in at run time (a variable without a default): a gap of the conversion.
  if (/"tf-/.test(d.message)) placeholders++;
  else console.log(`validate: ${relative(out, d.file ?? '')}:${d.line ?? ''}: ${d.message}`);
}
console.log(`validate: ${refused.size} manifests refused (${placeholders} errors on values the tests pass in at run time, not shown), set aside in ${aside}`);
for (const file of refused) renameSync(file, join(aside, relative(out, file).replace(/\//g, '-')));

const { startEmulator } = await import(join(packageRoot, '..', 'emulator', 'dist', 'src', 'server.js'));
const emu = await startEmulator({ port: 0, license: 'enterprise' });
try {
  // What the plan refuses (a reference to an object of another test's configuration) is set aside too.
  const first = JSON.parse((await svcform('plan', out, '--url', emu.url, '--json')).stdout || '{"errors":[]}');
  for (const e of first.errors ?? []) {
    console.log(`plan: ${e.source ? `${e.source}: ` : ''}${e.subject}: ${e.message}`);
    // `source` is file:line:column, the file relative to the working directory.
    const file = typeof e.source === 'string' ? resolve(e.source.replace(/:\d+:\d+$/, '')) : undefined;
    if (file && !refused.has(file)) {
      refused.add(file);
      renameSync(file, join(aside, relative(out, file).replace(/\//g, '-')));
    }
  }
  const applied = await svcform('apply', out, '--url', emu.url, '--auto-approve');
  // Each failure is shown where it happens and again in the closing list: once here.
  for (const line of new Set(applied.stdout.split('\n').filter((l) => l.startsWith('✗')))) console.log(`apply: ${line}`);
  console.log(`apply: ${(applied.stdout.match(/^Apply: .*$/m) ?? ['(no summary)'])[0]}`);
  const planned = await svcform('plan', out, '--url', emu.url);
  for (const line of planned.stdout.split('\n').filter((l) => /^[~+-] /.test(l))) console.log(`plan after apply: ${line}`);
  console.log(`plan after apply: ${(planned.stdout.match(/^Plan: .*$/m) ?? ['(no summary)'])[0]}`);
} finally {
  await emu.stop();
}
