import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import {
  assignFileStems,
  buildExport,
  escapeInterpolation,
  kindFileStem,
  renderManageSection,
  renderVariablesFile,
  safeName,
  type ExportOptions,
  type LiveGroup,
} from '../../src/engine/export.js';
import { loadConfig } from '../../src/cli/config.js';
import { parseManifestText } from '../../src/manifest/load.js';
import { interpolate } from '../../src/manifest/interpolate.js';
import { Redactor } from '../../src/manifest/redact.js';
import type { KindAdapter, LiveObject } from '../../src/kinds/types.js';
import { Selection } from '../../src/engine/selection.js';
import { RunScope } from '../../src/kinds/run-scope.js';

/** A stand-in adapter: toSpec returns body.spec, plus the variables and files the body names. */
function stubAdapter(kind: string, schema = `${kind}.schema.json`): KindAdapter {
  return {
    kind,
    schema,
    area: { name: 'test', defaults: { retryConflict: false } },
    references: () => [],
    list: async () => [],
    normalizeDesired: (res) => res.spec,
    normalizeLive: (live) => live.body.spec,
    create: async () => undefined,
    update: async () => undefined,
    delete: async () => undefined,
    toSpec(live) {
      if (live.body.fail) throw new Error('cannot convert');
      return { spec: structuredClone(live.body.spec), variables: live.body.variables, files: live.body.files };
    },
  };
}

const adapters = new Map(['Rule', 'Connector', 'ValueList', 'HostQuerySavedQuery'].map((k) => [k, stubAdapter(k)]));
const adapterFor = (kind: string) => adapters.get(kind);

function live(kind: string, space: string, name: string, body: Record<string, any>, readOnly?: string): LiveObject {
  return { kind, space, name, body, readOnly };
}

const outDir = resolve('/tmp/svcform-export-unit/out');
const schemaDir = resolve('/tmp/svcform-export-unit/pkg/schemas');

function options(extra: Partial<ExportOptions> = {}): ExportOptions {
  return { run: new RunScope(), layout: 'per-kind', includeBuiltin: false, outDir, schemaDir, version: '9.9.9', ...extra };
}

function parseDocs(text: string) {
  const parsed = parseManifestText(text, '/tmp/x.yaml');
  assert.deepEqual(parsed.diagnostics, []);
  return parsed.docs.map((d) => d.value as Record<string, any>);
}

describe('export file naming', () => {
  it('names a kind file in kebab case (HostQuerySavedQuery -> host-query-saved-query)', () => {
    assert.equal(kindFileStem('HostQuerySavedQuery'), 'host-query-saved-query');
    assert.equal(kindFileStem('ValueList'), 'value-list');
    assert.equal(kindFileStem('Rule'), 'rule');
  });

  it('makes safe names: lowercase, [a-z0-9._-] kept, others become -, no leading dot, at most 100 characters', () => {
    assert.equal(safeName('SSH Brute/Force #1'), 'ssh-brute-force--1');
    assert.equal(safeName('a.b_c-d'), 'a.b_c-d');
    assert.equal(safeName('..hidden'), '--hidden');
    assert.equal(safeName('Ünïcode'), '-n-code');
    assert.equal(safeName('x'.repeat(300)).length, 100);
  });

  it('disambiguates colliding safe names by a hash of the exact name, whatever the input order', () => {
    const names = ['soc-chat', 'SOC-Chat', 'SOC chat', 'other'];
    const a = assignFileStems(names);
    const b = assignFileStems([...names].reverse());
    assert.deepEqual([...a.entries()].sort(), [...b.entries()].sort());
    assert.equal(a.get('soc-chat'), 'soc-chat');
    assert.equal(a.get('other'), 'other');
    assert.match(a.get('SOC-Chat')!, /^soc-chat--[0-9a-f]{8}$/);
    assert.match(a.get('SOC chat')!, /^soc-chat--[0-9a-f]{8}$/);
    assert.equal(new Set(a.values()).size, 4);
  });
});

describe('export escaping of ${...}', () => {
  it('writes every literal ${ as $${ so that loading gives the live text back', () => {
    const spec = { query: 'process.args:"${file:x}" and ${env:HOME} and $${ and ${other}', nested: [{ v: 'a ${b}' }] };
    const escaped = escapeInterpolation(spec, new Set());
    const back = interpolate(escaped, { env: { HOME: '/root' }, dir: '/', root: '/', redactor: new Redactor(), posOf: () => ({ file: 'x', line: 1, col: 1 }) });
    assert.deepEqual(back.diagnostics, []);
    assert.deepEqual(back.value, spec);
    assert.deepEqual(back.secretPaths, []);
  });

  it('keeps the adapter placeholders of declared variables, renamed when asked', () => {
    const spec = { secrets: { token: '${env:SOC_TOKEN}', header: 'Bearer ${env:SOC_TOKEN}' }, config: { note: '${env:NOT_DECLARED}' } };
    const out = escapeInterpolation(spec, new Set(['SOC_TOKEN']), new Map([['SOC_TOKEN', 'SOC_TOKEN_OTHER']]));
    assert.deepEqual(out, { secrets: { token: '${env:SOC_TOKEN_OTHER}', header: 'Bearer ${env:SOC_TOKEN_OTHER}' }, config: { note: '$${env:NOT_DECLARED}' } });
  });
});

describe('buildExport, per-kind layout', () => {
  const groups: LiveGroup[] = [
    {
      kind: 'Rule',
      space: 'default',
      objects: [
        live('Rule', 'default', 'zeta', { spec: { type: 'query', name: 'Z', b: { y: 1, x: 2 }, a: [{ d: 1, c: 2 }] } }),
        live('Rule', 'default', 'alpha', { spec: { type: 'eql', name: 'A', note: 'line one\nline two\n' } }),
        live('Rule', 'default', 'prebuilt-1', { spec: { type: 'query', name: 'P' } }, 'prebuilt rule'),
      ],
    },
    { kind: 'Connector', space: 'default', objects: [] },
  ];

  it('writes <space>/<kind>.yaml with objects sorted by name, separated by ---, envelope first and spec keys sorted', () => {
    const result = buildExport(groups, adapterFor, options());
    assert.deepEqual(result.problems, []);
    assert.deepEqual(result.files.map((f) => f.path), ['default/rule.yaml']);
    const text = result.files[0].content;
    const docs = parseDocs(text);
    assert.deepEqual(docs.map((d) => d.metadata.name), ['alpha', 'zeta']);
    assert.equal(text.split('\n---\n').length, 2);
    assert.deepEqual(Object.keys(docs[1]), ['apiVersion', 'kind', 'metadata', 'spec']);
    assert.deepEqual(docs[1].metadata, { name: 'zeta', space: 'default' });
    assert.deepEqual(Object.keys(docs[1].spec), ['a', 'b', 'name', 'type']);
    assert.deepEqual(Object.keys(docs[1].spec.b), ['x', 'y']);
    assert.deepEqual(Object.keys(docs[1].spec.a[0]), ['c', 'd']);
    assert.equal(docs[0].spec.note, 'line one\nline two\n');
    assert.equal(docs[0].apiVersion, 'svcform/v1');
  });

  it('starts the file with a schema modeline relative to the file, then a header saying svcform exported it', () => {
    const text = buildExport(groups, adapterFor, options()).files[0].content;
    const lines = text.split('\n');
    const expected = posix.relative(posix.join(outDir, 'default'), posix.join(schemaDir, 'Rule.schema.json'));
    assert.equal(lines[0], `# yaml-language-server: $schema=${expected}`);
    assert.equal(expected, '../../pkg/schemas/Rule.schema.json');
    assert.match(text, /# Exported by svcform 9\.9\.9 \(svcform export\) from space "default": 2 Rule objects\./);
  });

  it('skips read-only objects and counts them; no file for a pair without objects', () => {
    const result = buildExport(groups, adapterFor, options());
    assert.deepEqual(result.pairs, [
      { kind: 'Rule', space: 'default', exported: 2, readOnlySkipped: 1, readOnlyExported: 0, names: ['alpha', 'zeta'] },
      { kind: 'Connector', space: 'default', exported: 0, readOnlySkipped: 0, readOnlyExported: 0, names: [] },
    ]);
    assert.ok(!result.files.some((f) => f.content.includes('prebuilt-1')));
  });

  it('with includeBuiltin writes read-only objects under .readonly/<space>/ with their reason, and never in the manage names', () => {
    const result = buildExport(groups, adapterFor, options({ includeBuiltin: true }));
    assert.deepEqual(result.files.map((f) => f.path), ['.readonly/default/rule.yaml', 'default/rule.yaml']);
    const ro = result.files[0].content;
    assert.match(ro, /READ-ONLY/);
    assert.match(ro, /# Rule\/prebuilt-1: prebuilt rule\n/);
    assert.ok(ro.startsWith('# yaml-language-server: $schema=../../../pkg/schemas/Rule.schema.json\n'));
    assert.deepEqual(parseDocs(ro).map((d) => d.metadata.name), ['prebuilt-1']);
    assert.equal(result.pairs[0].readOnlyExported, 1);
    assert.deepEqual(result.pairs[0].names, ['alpha', 'zeta']);
  });

  it('gives the same bytes whatever order the server listed objects in', () => {
    const shuffled = groups.map((g) => ({ ...g, objects: [...g.objects].reverse() }));
    assert.deepEqual(buildExport(shuffled, adapterFor, options()).files, buildExport(groups, adapterFor, options()).files);
  });

  it('keeps only objects matching --select kind/name patterns', () => {
    const result = buildExport(groups, adapterFor, options({ select: new Selection(['Rule/al*', 'Connector/*']) }));
    assert.deepEqual(parseDocs(result.files[0].content).map((d) => d.metadata.name), ['alpha']);
    assert.equal(result.pairs[0].exported, 1);
  });

  it('splits a kind file into parts past the size limit (rule.yaml, rule-2.yaml, ...)', () => {
    const many: LiveGroup = { kind: 'Rule', space: 'default', objects: Array.from({ length: 30 }, (_, i) => live('Rule', 'default', `r${String(i).padStart(2, '0')}`, { spec: { name: 'x'.repeat(100) } })) };
    const result = buildExport([many], adapterFor, options({ maxPartBytes: 1500 }));
    assert.ok(result.files.length > 2);
    const paths = result.files.map((f) => f.path);
    assert.ok(paths.includes('default/rule.yaml'));
    assert.deepEqual(
      paths.filter((p) => p !== 'default/rule.yaml').sort(),
      Array.from({ length: paths.length - 1 }, (_, i) => `default/rule-${i + 2}.yaml`).sort(),
    );
    assert.ok(result.files.every((f) => Buffer.byteLength(f.content) < 1500 + 400));
    const names = result.files.flatMap((f) => parseDocs(f.content).map((d) => d.metadata.name)).sort();
    assert.equal(names.length, 30);
    assert.ok(result.files.every((f) => f.content.startsWith('# yaml-language-server:')));
  });

  it('reports an object whose toSpec fails and still exports the others', () => {
    const result = buildExport([{ kind: 'Rule', space: 'default', objects: [live('Rule', 'default', 'ok', { spec: { a: 1 } }), live('Rule', 'default', 'bad', { fail: true })] }], adapterFor, options());
    assert.equal(result.problems.length, 1);
    assert.match(result.problems[0].subject, /Rule\/bad/);
    assert.deepEqual(parseDocs(result.files[0].content).map((d) => d.metadata.name), ['ok']);
  });

  it('passes every file through the redactor', () => {
    const result = buildExport(
      [{ kind: 'Rule', space: 'default', objects: [live('Rule', 'default', 'r', { spec: { description: 'contains hunter2-secret somewhere' } })] }],
      adapterFor,
      options({ redact: (t) => t.replaceAll('hunter2-secret', '(sensitive)') }),
    );
    assert.ok(!result.files[0].content.includes('hunter2-secret'));
    assert.match(result.files[0].content, /\(sensitive\)/);
  });
});

describe('buildExport, side files and variables', () => {
  const lists = (space: string): LiveGroup => ({
    kind: 'ValueList',
    space,
    objects: [
      live('ValueList', space, 'big-a', { spec: { name: 'A', items_file: 'big.items.txt' }, files: { 'big.items.txt': 'a\nb\n' } }),
      live('ValueList', space, 'big-b', { spec: { name: 'B', items_file: 'big.items.txt' }, files: { 'big.items.txt': 'c\nd\n' } }),
    ],
  });

  for (const layout of ['per-kind', 'per-object'] as const) {
    it(`${layout}: writes adapter files beside the manifest so its relative items_file resolves, renaming a clash`, () => {
      const result = buildExport([lists('default')], adapterFor, options({ layout }));
      const byPath = new Map(result.files.map((f) => [f.path, f.content]));
      const manifests = result.files.filter((f) => f.path.endsWith('.yaml'));
      const seen: Record<string, string> = {};
      for (const m of manifests) {
        for (const doc of parseDocs(m.content)) {
          const target = posix.join(posix.dirname(m.path), doc.spec.items_file);
          assert.ok(byPath.has(target), `${target} is written`);
          seen[doc.metadata.name] = byPath.get(target)!;
        }
      }
      assert.deepEqual(seen, { 'big-a': 'a\nb\n', 'big-b': 'c\nd\n' });
      if (layout === 'per-object') {
        assert.deepEqual(manifests.map((m) => m.path), ['default/value-list/big-a.yaml', 'default/value-list/big-b.yaml']);
      }
    });
  }

  it('refuses adapter files that would land outside the manifest folder', () => {
    const result = buildExport([{ kind: 'ValueList', space: 'default', objects: [live('ValueList', 'default', 'x', { spec: {}, files: { '../evil.txt': 'x' } })] }], adapterFor, options());
    assert.equal(result.problems.length, 1);
    assert.ok(!result.files.some((f) => f.path.includes('evil')));
  });

  it('collects variables and gives a clashing name a suffix (the space when it comes from another space, else _2), in the spec too', () => {
    const connector = (space: string) =>
      live('Connector', space, 'soc-chat', { spec: { connector_type_id: '.chat', secrets: { webhookUrl: '${env:SOC_CHAT_WEBHOOKURL}' } }, variables: [{ name: 'SOC_CHAT_WEBHOOKURL', description: 'secrets.webhookUrl of connector soc-chat' }] });
    const result = buildExport(
      [
        { kind: 'Connector', space: 'default', objects: [connector('default')] },
        { kind: 'Connector', space: 'blue-team', objects: [connector('blue-team')] },
      ],
      adapterFor,
      options(),
    );
    assert.deepEqual(result.variables.map((v) => v.name), ['SOC_CHAT_WEBHOOKURL', 'SOC_CHAT_WEBHOOKURL_BLUE_TEAM']);
    const blue = parseDocs(result.files.find((f) => f.path === 'blue-team/connector.yaml')!.content)[0];
    assert.equal(blue.spec.secrets.webhookUrl, '${env:SOC_CHAT_WEBHOOKURL_BLUE_TEAM}');
    const dflt = parseDocs(result.files.find((f) => f.path === 'default/connector.yaml')!.content)[0];
    assert.equal(dflt.spec.secrets.webhookUrl, '${env:SOC_CHAT_WEBHOOKURL}');
    const sameSpace = buildExport(
      [{ kind: 'Connector', space: 'default', objects: [connector('default'), { ...connector('default'), name: 'soc_chat' }] }],
      adapterFor,
      options(),
    );
    assert.deepEqual(sameSpace.variables.map((v) => v.name), ['SOC_CHAT_WEBHOOKURL', 'SOC_CHAT_WEBHOOKURL_2']);
    const vars = renderVariablesFile(result.variables);
    assert.match(vars, /^SOC_CHAT_WEBHOOKURL= {2}# Connector\/soc-chat \(space default\): secrets\.webhookUrl of connector soc-chat$/m);
    assert.match(vars, /^SOC_CHAT_WEBHOOKURL_BLUE_TEAM= {2}# /m);
    assert.ok(vars.split('\n').filter((l) => !l.startsWith('#') && l).every((l) => /^[A-Z0-9_]+= {2}# /.test(l)));
  });
});

describe('renderManageSection', () => {
  it('is a svcform.yaml manage section that loadConfig accepts, one scope per exported (kind, space) naming exactly the exported objects', () => {
    const text = renderManageSection(
      [
        { kind: 'Rule', space: 'default', exported: 2, readOnlySkipped: 3, readOnlyExported: 0, names: ['zeta', 'alpha'] },
        { kind: 'Connector', space: 'default', exported: 0, readOnlySkipped: 1, readOnlyExported: 0, names: [] },
        { kind: 'Rule', space: 'blue', exported: 1, readOnlySkipped: 0, readOnlyExported: 0, names: ['b'] },
      ],
      '9.9.9',
    );
    const dir = mkdtempSync(join(tmpdir(), 'svcform-manage-'));
    const file = join(dir, 'svcform.yaml');
    writeFileSync(file, text);
    const config = loadConfig(file, ['Rule', 'Connector']);
    assert.deepEqual(config.manage, [
      { kind: 'Rule', spaces: ['default'], selector: { names: ['alpha', 'zeta'] } },
      { kind: 'Rule', spaces: ['blue'], selector: { names: ['b'] } },
    ]);
    assert.ok(text.startsWith('# manage scopes written by svcform 9.9.9'));
  });
});
