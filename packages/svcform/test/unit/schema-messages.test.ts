import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { closest, describeSchemaErrors, displayField, FORMAT_WORDS, packageRoot, PATTERN_WORDS, schemaValidator } from '../../src/manifest/schema.js';
import type { DocPath } from '../../src/manifest/types.js';

/** Validates `doc` against a kind's schema and returns the messages as `field-path: message`. */
function messages(schemaFile: string, doc: Record<string, unknown>, secret: DocPath[] = []): string[] {
  const validate = schemaValidator(schemaFile);
  assert.equal(validate(doc), false, 'the document should be invalid');
  const secrets = new Set(secret.map((p) => JSON.stringify(p)));
  return describeSchemaErrors(validate.errors, doc, { schema: validate.schema, isSecret: (p) => secrets.has(JSON.stringify(p)) }).map((i) => `${displayField(i.path)}: ${i.message}`);
}

const envelope = (kind: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'x' }) => ({ apiVersion: 'svcform/v1', kind, metadata, spec });
const rule = (spec: Record<string, unknown>) => envelope('Rule', { name: 'R', description: 'D', severity: 'low', risk_score: 1, ...spec });

describe('closest (did-you-mean)', () => {
  it('counts a swap of two letters as one edit and ignores case', () => {
    assert.equal(closest('hgih', ['low', 'medium', 'high', 'critical']), 'high');
    assert.equal(closest('enabeld', ['enabled', 'vars']), 'enabled');
    assert.equal(closest('apikey', ['apiKey', 'caData']), 'apiKey');
    assert.equal(closest('MaintenanceWindows', ['Rule', 'MaintenanceWindow']), 'MaintenanceWindow');
  });

  it('suggests nothing for short words two edits away or for unrelated words', () => {
    assert.equal(closest('get', ['post', 'put']), undefined);
    assert.equal(closest('string', ['keyword', 'ip', 'text']), undefined);
  });

  it('costs next to nothing for a huge word (a 300 KB unknown key took 42 s; 10 MB never finished)', () => {
    const candidates = Object.keys((schemaValidator('Rule.schema.json').schema as any).properties.spec.properties);
    for (const size of [300_000, 10_000_000]) {
      const word = 'x'.repeat(size - 4) + 'name';
      const started = performance.now();
      assert.equal(closest(word, candidates), undefined);
      assert.ok(performance.now() - started < 50, `${size} characters took ${performance.now() - started} ms`);
    }
    // Near the cap, a long typo is still found, and a long word far from every candidate is skipped by length alone.
    assert.equal(closest('threat_indicator_pathh', candidates), 'threat_indicator_path');
    const started = performance.now();
    for (let i = 0; i < 1000; i++) closest('y'.repeat(64), candidates);
    assert.ok(performance.now() - started < 200, '1,000 words at the cap');
  });
});

describe('displayField', () => {
  it('shortens a very long key to 80 characters with an ellipsis, and escapes control characters', () => {
    assert.equal(displayField(['spec', 'k'.repeat(10_000)]), `spec.${'k'.repeat(79)}…`);
    assert.equal(displayField(['spec', 'a\nb\u001b']), 'spec.a\\nb\\u001b');
  });

  it('a message about a 10 MB unknown key stays short', () => {
    const long = 'q'.repeat(10 * 1024 * 1024);
    const started = performance.now();
    const out = messages('Rule.schema.json', rule({ type: 'query', query: 'a', [long]: 1 }));
    assert.ok(performance.now() - started < 2000, `took ${performance.now() - started} ms`);
    assert.deepEqual(out.map((m) => m.length < 400), [true]);
    assert.match(out[0], /is not a known field/);
  });
});

describe('describeSchemaErrors', () => {
  it('names the rule type of a then-branch requirement and of a field another type owns', () => {
    assert.deepEqual(messages('Rule.schema.json', rule({ type: 'new_terms', query: 'q', anomaly_threshold: 5 })), [
      'spec: spec.new_terms_fields is required for type new_terms',
      'spec: spec.history_window_start is required for type new_terms',
      'spec.anomaly_threshold: spec.anomaly_threshold is not allowed for type new_terms',
    ]);
  });

  it('names the connector type for $defs that only a then-branch uses, but not the rule type for $defs used everywhere', () => {
    assert.deepEqual(messages('Connector.schema.json', envelope('Connector', { name: 'C', connector_type_id: '.index', config: {} })), [
      'spec.config: spec.config.index is required for connector_type_id .index',
    ]);
    assert.deepEqual(messages('Rule.schema.json', rule({ type: 'query', actions: [{ id: 'a' }] })), ['spec.actions[0]: spec.actions[0].params is required']);
  });

  it('shows the offending value, quoted, shortened when long', () => {
    const long = 'x'.repeat(80);
    assert.deepEqual(messages('Rule.schema.json', rule({ type: 'query', interval: long })), [`spec.interval: spec.interval must be a duration such as 30s, 5m, 1h or 1d, not "${'x'.repeat(57)}..."`]);
  });

  it('never shows a secret value, nor suggests a correction that would reveal it', () => {
    assert.deepEqual(messages('Rule.schema.json', rule({ type: 'query', severity: 'hgih' }), [['spec', 'severity']]), ['spec.severity: spec.severity must be one of: low, medium, high, critical, not (sensitive)']);
  });

  it('of an anyOf, speaks through the alternative whose type fits the value', () => {
    const saved = (interval: unknown) => messages('HostQuerySavedQuery.schema.json', envelope('HostQuerySavedQuery', { query: 'q', interval }));
    assert.deepEqual(saved(0), ['spec.interval: spec.interval must be >= 1']);
    assert.deepEqual(saved('12x'), ['spec.interval: spec.interval must be a positive whole number, not "12x"']);
    assert.deepEqual(saved(true), ['spec.interval: spec.interval must be an integer or a string, not true']);
    assert.deepEqual(saved([1]), ['spec.interval: spec.interval must be an integer or a string, not a list']);
  });

  it('points at the repeated item of a unique list', () => {
    assert.deepEqual(messages('ValueList.schema.json', envelope('ValueList', { name: 'L', description: 'D', type: 'ip', items: ['a', 'b', 'c', 'b'] })), [
      'spec.items[3]: spec.items[3] repeats spec.items[1]: the items of spec.items must be unique',
    ]);
  });

  it('explains mutually exclusive fields (`not: {required: [a, b]}`) at the second field', () => {
    assert.deepEqual(messages('ValueList.schema.json', envelope('ValueList', { name: 'L', description: 'D', type: 'ip', items: ['a'], items_file: 'f.txt' })), [
      'spec.items_file: spec.items and spec.items_file cannot be used together',
    ]);
  });

  it('lists the known fields when there is no likely typo, and says when an object takes none', () => {
    assert.deepEqual(messages('MaintenanceWindow.schema.json', envelope('MaintenanceWindow', { schedule: { custom: { start: '2026-01-01T00:00:00Z', duration: '1h', length: '1h' } } })), [
      'spec.schedule.custom.length: spec.schedule.custom.length is not a known field (known fields: start, duration, timezone, recurring)',
    ]);
    assert.deepEqual(messages('Connector.schema.json', envelope('Connector', { name: 'C', connector_type_id: '.server-log', secrets: { token: 'abc' } })), [
      'spec.secrets.token: spec.secrets.token is not allowed: spec.secrets takes no fields for connector_type_id .server-log',
    ]);
  });

  it('describes one-of-two objects, nullable types and short enums in words', () => {
    const ajv = new Ajv2020({ allErrors: true, verbose: true });
    const oneOfTwo = ajv.compile({ type: 'object', additionalProperties: { type: 'object', minProperties: 1, maxProperties: 1, properties: { field: { type: 'string' }, value: { type: 'string' } } } });
    const pair = { none: {}, both: { field: 'f', value: 'v' } };
    assert.equal(oneOfTwo(pair), false);
    assert.deepEqual(
      describeSchemaErrors(oneOfTwo.errors, pair).map((i) => i.message),
      ['none must set one of: field, value', 'both must set only one of: field, value'],
    );
    assert.deepEqual(messages('AgentPolicy.schema.json', envelope('AgentPolicy', { name: 'P', namespace: 'default', data_output_id: 5 })), [
      'spec.data_output_id: spec.data_output_id must be a string or null, not 5',
    ]);
    assert.deepEqual(messages('Connector.schema.json', envelope('Connector', { name: 'C', connector_type_id: '.webhook', config: { url: 'https://x.example.com', certType: 'pem' } })), [
      'spec.config.certType: spec.config.certType must be ssl-crt-key or ssl-pfx, not "pem"',
    ]);
  });

  it('takes package policy var values as the simplified format does, and names its forms when a mapping fits none (fleet SimplifiedVarsSchema)', () => {
    const policy = (vars: Record<string, unknown>) => envelope('PackagePolicy', { name: 'P', policy_ids: ['a'], package: { name: 'system', version: '1.60.0' }, vars });
    assert.equal(schemaValidator('PackagePolicy.schema.json')(policy({ a: null, b: true, c: 's', d: 1.5, e: ['x'], f: [1, 2], g: [], h: { id: 'secret-1', isSecretRef: true } })), true);
    assert.deepEqual(messages('PackagePolicy.schema.json', policy({ processors: { add_fields: { target: 'x' } } })), [
      'spec.vars.processors: spec.vars.processors must be null, a boolean (true or false), a string, a number, a list of strings, a list of numbers or a mapping of id and isSecretRef, not a mapping',
    ]);
    assert.deepEqual(messages('PackagePolicy.schema.json', policy({ tags: ['a', 1] })), ['spec.vars.tags[1]: spec.vars.tags[1] must be a string, not 1']);
    // A mapping naming a field of the secret reference is taken as one: what it lacks is the message.
    assert.deepEqual(messages('AgentlessPolicy.schema.json', envelope('AgentlessPolicy', { name: 'P', package: { name: 'cspm', version: '1.0.0' }, vars: { key: { id: 'k' } } })), [
      'spec.vars.key: spec.vars.key.isSecretRef is required',
    ]);
  });

  it('bounds an agent policy\'s monitoring port as the route does: 0 to 65353, any number (OAS agent policy monitoring_http.port)', () => {
    const policy = (port: number) => envelope('AgentPolicy', { name: 'P', namespace: 'default', monitoring_http: { enabled: true, port } });
    assert.equal(schemaValidator('AgentPolicy.schema.json')(policy(65353)), true);
    assert.deepEqual(messages('AgentPolicy.schema.json', policy(65354)), ['spec.monitoring_http.port: spec.monitoring_http.port must be <= 65353']);
  });

  it('takes rule fields as the route does where svcform had been stricter (OAS AnomalyThreshold, ThreatMapping, RuleActionFrequency.throttle)', () => {
    const valid = schemaValidator('Rule.schema.json');
    // AnomalyThreshold: an integer of at least 0, no upper bound.
    assert.equal(valid(rule({ type: 'machine_learning', machine_learning_job_id: 'job', anomaly_threshold: 150 })), true, JSON.stringify(valid.errors));
    // ThreatMapping: at least one group; a group's entries carry no minimum.
    const threat = { type: 'threat_match', query: '*:*', threat_index: ['ti-*'], threat_query: '*:*', index: ['logs-*'] };
    assert.equal(valid(rule({ ...threat, threat_mapping: [{ entries: [] }] })), true, JSON.stringify(valid.errors));
    // RuleActionThrottle in a per-action frequency: no_actions, rule or a duration.
    for (const throttle of ['no_actions', 'rule', '1h', null]) {
      const actions = [{ id: 'c', group: 'default', params: {}, frequency: { summary: true, notifyWhen: 'onActiveAlert', throttle } }];
      assert.equal(valid(rule({ type: 'query', query: '*', actions })), true, `${throttle}: ${JSON.stringify(valid.errors)}`);
    }
    assert.equal(valid(rule({ type: 'machine_learning', machine_learning_job_id: 'job', anomaly_threshold: -1 })), false);
  });

  it('falls back to the raw pattern and format name for ones it has no words for', () => {
    const ajv = new Ajv2020({ allErrors: true, verbose: true });
    const validate = ajv.compile({ type: 'object', properties: { a: { type: 'string', pattern: '^x+$' }, b: { not: { const: 1 } } } });
    const doc = { a: 'y', b: 1 };
    assert.equal(validate(doc), false);
    assert.deepEqual(
      describeSchemaErrors(validate.errors, doc).map((i) => i.message),
      ['a must be text matching ^x+$, not "y"', 'b is not allowed here'],
    );
  });

  it('has words for every pattern and format used in schemas/', () => {
    const missing: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (typeof n.pattern === 'string' && !(n.pattern in PATTERN_WORDS)) missing.push(`${where}: pattern ${n.pattern}`);
      if (typeof n.format === 'string' && !(n.format in FORMAT_WORDS)) missing.push(`${where}: format ${n.format}`);
      for (const [k, v] of Object.entries(n)) walk(v, `${where}/${k}`);
    };
    const dir = join(packageRoot(), 'schemas');
    for (const file of readdirSync(dir)) walk(JSON.parse(readFileSync(join(dir, file), 'utf8')), file);
    assert.deepEqual(missing, []);
  });
});
