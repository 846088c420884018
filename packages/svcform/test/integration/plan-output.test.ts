import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { RunningEmulator } from '@svcform/emulator/server.js';
import { VERSION } from '../../src/common/version.js';
import { emulator } from '@svcform/emulator/testing.js';
import { cli } from '../helpers/cli.js';

const compiled = new Ajv2020({ allErrors: true }).compile(JSON.parse(readFileSync('schemas/plan.schema.json', 'utf8')));
/** Not a type guard: the plans stay `any` for the assertions after validation. */
const validatePlan = (plan: unknown): boolean => compiled(plan);
const schemaErrors = () => JSON.stringify(compiled.errors, null, 2);

const textOf = (n: any): string => n.value ?? (n.children ?? []).map(textOf).join('');

const CONFIG = 'manage:\n  - kind: Rule\n    selector: {tags: [managed-by:svcform]}\n  - kind: Connector\n    selector: {namePrefix: "soc-"}\n';

const rule = (name: string, severity: string, extra = '') =>
  [
    'apiVersion: svcform/v1',
    'kind: Rule',
    `metadata: {name: ${name}}`,
    'spec:',
    '  type: query',
    `  name: Rule ${name}`,
    '  description: Found by the plan format test.',
    `  severity: ${severity}`,
    '  risk_score: 50',
    '  index: [logs-*]',
    '  query: process.name:evil.exe',
    '  tags: [managed-by:svcform]',
    extra,
  ].join('\n');

const chat = (name: string) => `apiVersion: svcform/v1\nkind: Connector\nmetadata: {name: ${name}}\nspec:\n  name: Chat ${name}\n  connector_type_id: .chat\n  secrets:\n    webhookUrl: \${env:CHAT_URL}\n`;

describe('plan output for a plan with a create, an update and a delete (issue 12: items 4 and 8)', () => {
  let emu: RunningEmulator;
  let dir: string;
  const env = { CHAT_URL: 'https://chat.example.com/hooks/very-secret-token', RULE_NOTE: 'Runbook: page on-call (secret path)', SHORT: 'k9z' };
  const write = (files: Record<string, string>) => {
    rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(join(tmpdir(), 'svcform-planjson-'));
    for (const [name, text] of Object.entries({ 'svcform.yaml': CONFIG, ...files })) writeFileSync(join(dir, name), text);
  };
  before(async () => {
    emu = await emulator();
    dir = mkdtempSync(join(tmpdir(), 'svcform-planjson-'));
    write({ 'rules.yaml': [rule('keep', 'high'), rule('gone', 'critical')].join('\n---\n'), 'chat.yaml': chat('soc-chat') });
    const applied = await cli(['apply', dir, '--url', emu.url], env);
    assert.equal(applied.code, 0, applied.out + applied.err);
    // One update (severity lowered), one delete, one rule and one connector created; the new rule's
    // note and author come from the environment.
    write({
      'rules.yaml': [rule('keep', 'low'), rule('new', 'medium', '  note: ${env:RULE_NOTE}\n  author: ["${env:SHORT}"]\n')].join('\n---\n'),
      'chat.yaml': [chat('soc-chat'), chat('soc-chat-2')].join('---\n'),
    });
  });
  after(() => emu.stop());

  it('item 8: plan --json has format_version 2, svcform_version, after on creates, before on deletes, and validates against schemas/plan.schema.json', async () => {
    const run = await cli(['plan', dir, '--url', emu.url, '--json'], env);
    assert.equal(run.code, 0, run.err);
    const plan = JSON.parse(run.out);
    assert.ok(validatePlan(plan), schemaErrors());
    assert.equal(plan.format_version, 2);
    assert.equal(plan.svcform_version, VERSION);
    const byId = new Map<string, any>(plan.changes.map((c: any) => [`${c.action} ${c.kind}/${c.name}`, c]));
    assert.deepEqual([...byId.keys()].sort(), ['create Connector/soc-chat-2', 'create Rule/new', 'delete Rule/gone', 'update Rule/keep']);

    const created: any = byId.get('create Rule/new');
    assert.equal(created.after.severity, 'medium');
    assert.equal(created.after.query, 'process.name:evil.exe');
    assert.equal(created.after.note, '(sensitive)');
    // Too short for the redactor to recognise in text: hidden by its pointer.
    assert.deepEqual(created.after.author, ['(sensitive)']);
    assert.deepEqual((byId.get('create Connector/soc-chat-2') as any).after, { name: 'Chat soc-chat-2', connector_type_id: '.chat', config: {} });

    const deleted: any = byId.get('delete Rule/gone');
    assert.equal(deleted.before.name, 'Rule gone');
    assert.equal(deleted.before.severity, 'critical');
    const updated: any = byId.get('update Rule/keep');
    assert.ok(!('after' in updated) && !('before' in updated), 'updates carry fields and a patch, not whole specs');
    assert.deepEqual(updated.fields.find((f: any) => f.pointer === '/severity'), { path: 'spec.severity', pointer: '/severity', before: 'high', after: 'low' });
    for (const secret of Object.values(env)) assert.ok(!run.out.includes(secret), `${secret} is in the plan`);
  });

  it('item 4: plan and drift --format markdown are titled after their command and parse as GFM, deletes first', async () => {
    for (const [command, code] of [['plan', 0], ['drift', 2]] as const) {
      const run = await cli([command, dir, '--url', emu.url, '--format', 'markdown'], env);
      assert.equal(run.code, code, run.err);
      const nodes = (fromMarkdown(run.out, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as any).children as any[];
      assert.equal(nodes[0].type, 'heading');
      assert.equal(nodes[0].children[0].value, `svcform ${command}`);
      assert.ok(nodes.some((n) => n.type === 'table'));
      const items = nodes.find((n) => n.type === 'list').children.map(textOf);
      assert.deepEqual(items, [
        '🗑️ delete Rule/gone in space default',
        '✏️ update Rule/keep in space default: spec.severity',
        '➕ create Connector/soc-chat-2 in space default',
        '➕ create Rule/new in space default',
      ]);
      for (const secret of Object.values(env)) assert.ok(!run.out.includes(secret), `${secret} is in the comment`);
    }
  });

  it('item 8: a saved plan embeds format 2 and apply --plan still applies it (last: it applies the plan)', async () => {
    const file = join(dir, 'saved.json');
    const saved = await cli(['plan', dir, '--url', emu.url, '--out', file], env);
    assert.equal(saved.code, 0, saved.err);
    const envelope = JSON.parse(readFileSync(file, 'utf8'));
    assert.ok(validatePlan(envelope.plan), schemaErrors());
    const applied = await cli(['apply', '--plan', file, '--url', emu.url], env);
    assert.equal(applied.code, 0, applied.out + applied.err);
    assert.equal((await cli(['plan', dir, '--url', emu.url, '--detailed-exitcode'], env)).code, 0);
  });

  it('item 8: the schema is not vacuous: it refuses a format 1 plan, a create without after and a delete without before', () => {
    const minimal = { format_version: 2, svcform_version: VERSION, target: { url: 'embedded', embedded: true }, summary: { create: 0, update: 0, delete: 0, unchanged: 0, unmanaged: 0 }, errors: [], fingerprint: { live: 'a', desired: 'b' } };
    const change = (action: string, extra: object) => ({ action, kind: 'Rule', space: 'default', name: 'r', wave: 0, depends_on: [], fields: [], patch: [], ...extra });
    assert.ok(validatePlan({ ...minimal, changes: [change('create', { after: {} }), change('delete', { before: {} })] }), schemaErrors());
    assert.ok(!validatePlan({ ...minimal, format_version: '1', changes: [] }));
    assert.ok(!validatePlan({ ...minimal, changes: [change('create', {})] }));
    assert.ok(!validatePlan({ ...minimal, changes: [change('delete', {})] }));
    assert.ok(!validatePlan({ ...minimal, changes: [change('update', { after: {} })] }));
  });

});
