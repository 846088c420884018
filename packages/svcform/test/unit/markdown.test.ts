import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { FieldChange } from '../../src/engine/diff.js';
import type { Plan, PlanError, PlannedChange } from '../../src/engine/plan.js';
import { DEFAULT_MARKDOWN_MAX_CHARS, renderPlanMarkdown } from '../../src/report/markdown.js';
import { resource } from '../helpers/resource.js';

/** The parts of an mdast node these tests read. */
interface Node {
  type: string;
  value?: string;
  depth?: number;
  lang?: string | null;
  children?: Node[];
}

/** Parses the way github.com does: CommonMark with the GFM extensions (tables among them). */
function parse(markdown: string): Node[] {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as unknown as Node;
  return tree.children ?? [];
}

const textOf = (n: Node): string => n.value ?? (n.children ?? []).map(textOf).join('');
const all = (nodes: Node[], type: string): Node[] => nodes.flatMap((n) => [...(n.type === type ? [n] : []), ...all(n.children ?? [], type)]);

const base = (kind: string, name: string) => ({ id: `${kind}/default/${name}`, kind, space: 'default', name, patch: [], dependsOn: [], wave: 0 });
const live = (kind: string, name: string) => ({ kind, space: 'default', name, body: {} });
const create = (kind: string, name: string): PlannedChange => ({ ...base(kind, name), action: 'create', fields: [], resource: resource(kind, name, {}), ignore: [] });
const update = (kind: string, name: string, fields: FieldChange[]): PlannedChange => ({ ...base(kind, name), action: 'update', fields, resource: resource(kind, name, {}), live: live(kind, name), ignore: [] });
const remove = (kind: string, name: string): PlannedChange => ({ ...base(kind, name), action: 'delete', fields: [], live: live(kind, name) });

function planOf(changes: PlannedChange[], errors: PlanError[] = []): Plan {
  const n = (action: string) => changes.filter((c) => c.action === action).length;
  return { changes, errors, summary: { create: n('create'), update: n('update'), delete: n('delete'), unchanged: 0, unmanaged: 0 }, liveFingerprint: 'x', desiredFingerprint: 'y' };
}

const QUERY_BEFORE = "SELECT name FROM processes\nWHERE name = 'a|b'\n  AND cmdline LIKE '%<script>%';\n";
const QUERY_AFTER = "SELECT name FROM processes\nWHERE name = 'a|b'\n  AND cmdline LIKE '%```%';\n";

/** Creates, updates and deletes in the engine's order (deletes last), with awkward characters. */
function mixedPlan(): Plan {
  return planOf([
    create('Connector', 'soc-chat'),
    create('Rule', 'tick`name'),
    update('HostQuerySavedQuery', 'procs', [{ pointer: '/query', before: QUERY_BEFORE, after: QUERY_AFTER }]),
    update('Rule', 'weird|name<x>', [
      { pointer: '/severity', before: 'high', after: 'low' },
      { pointer: '/tags', added: ['<b>new</b>'], removed: ['old|tag'] },
    ]),
    remove('Rule', 'old-rule'),
    remove('ValueList', 'blocked_ips'),
  ]);
}

describe('plan --format markdown (issue 12: item 4)', () => {
  it('is valid GFM: heading, delete warning before the table, an intact table, one list with deletes first', () => {
    const nodes = parse(renderPlanMarkdown(mixedPlan(), 'https://svc.example.com'));
    assert.equal(nodes[0].type, 'heading');
    assert.equal(nodes[0].depth, 3);
    assert.equal(textOf(nodes[0]), 'svcform plan');

    const warning = nodes.findIndex((n) => n.type === 'paragraph' && textOf(n).startsWith('⚠ 2 deletes'));
    const table = nodes.findIndex((n) => n.type === 'table');
    assert.ok(warning > 0 && warning < table, 'the delete warning comes before the summary table');
    const rows = nodes[table].children!.map((row) => row.children!.map(textOf));
    assert.deepEqual(rows, [['create', 'update', 'delete', 'unchanged', 'unmanaged'], ['2', '2', '2', '0', '0']]);

    const lists = nodes.filter((n) => n.type === 'list');
    assert.equal(lists.length, 1, 'one list: the changes');
    const items = lists[0].children!.map(textOf);
    assert.deepEqual(items.map((t) => t.split(' ').slice(0, 2).join(' ')), ['🗑️ delete', '🗑️ delete', '✏️ update', '✏️ update', '➕ create', '➕ create']);
    // Names are shown exactly, whatever characters they hold.
    const codes = all(lists, 'inlineCode').map((n) => n.value);
    for (const name of ['Rule/old-rule', 'ValueList/blocked_ips', 'Rule/weird|name<x>', 'Rule/tick`name', 'Connector/soc-chat']) assert.ok(codes.includes(name), `${name} in ${JSON.stringify(codes)}`);
    assert.match(items[3], /Rule\/weird\|name<x> in space default: spec\.severity, spec\.tags$/);
  });

  it('keeps the diffs in one collapsed block that swallows nothing after it', () => {
    const nodes = parse(renderPlanMarkdown(mixedPlan(), 'https://svc.example.com'));
    const html = nodes.filter((n) => n.type === 'html').map((n) => n.value);
    assert.deepEqual(html, ['<details><summary>Full plan</summary>', '</details>'], 'no Markdown ended up inside an HTML block');
    const close = nodes.findIndex((n) => n.type === 'html' && n.value === '</details>');
    assert.equal(nodes[close + 1].type, 'paragraph');
    assert.equal(textOf(nodes[close + 1]), 'Plan: 2 to create, 2 to update, 2 to delete, 0 unchanged.');

    const code = nodes.filter((n) => n.type === 'code');
    assert.equal(code.length, 1, 'the backticks in a value did not close the fence');
    assert.equal(code[0].lang, 'diff');
    const lines = code[0].value!.split('\n');
    assert.equal(lines[0], '- delete Rule/old-rule (space default)', 'deletes first here too');
    // A multi-line string shows as a line diff, the unchanged lines as context and a line replaced
    // by one other line as its words (~).
    assert.deepEqual(lines.slice(lines.indexOf('  spec.query:'), lines.indexOf('  spec.query:') + 4), [
      '  spec.query:',
      '    SELECT name FROM processes',
      "    WHERE name = 'a|b'",
      "~     AND cmdline LIKE '%[-<script>-]{+```+}%';",
    ]);
    assert.ok(lines.includes('-   "old|tag"') && lines.includes('+   "<b>new</b>"'), lines.join('\n'));
    // The last change is a create: its title, then the fields a reviewer checks as added lines.
    const created = lines.indexOf('+ create Rule/tick`name (space default)');
    assert.ok(created > 0 && lines.slice(created + 1).every((line) => line.startsWith('+   spec.')), lines.join('\n'));
  });

  it('shows error messages as text, whatever Markdown or HTML they contain', () => {
    const plan = planOf([], [{ subject: 'Rule/x (space default)', message: 'the server said <b>no</b> | *twice* [see](http://x) `code`\n- not a list', source: { file: 'rules/x.yaml', line: 3, col: 1 } }]);
    const nodes = parse(renderPlanMarkdown(plan, 'embedded'));
    const list = nodes.find((n) => n.type === 'list')!;
    assert.equal(list.children!.length, 1);
    assert.equal(textOf(list.children![0]), 'rules/x.yaml:3 Rule/x (space default): the server said <b>no</b> | *twice* [see](http://x) `code` - not a list');
    assert.deepEqual(all(nodes, 'html'), []);
    assert.ok(!nodes.some((n) => textOf(n).includes('matches the manifests')), 'a plan with errors does not claim the server matches');
  });

  it('is titled after the command: drift --format markdown is "svcform drift"', () => {
    const drift = parse(renderPlanMarkdown(mixedPlan(), 'embedded', { command: 'drift' }));
    assert.equal(textOf(drift[0]), 'svcform drift');
    assert.ok(drift.some((n) => textOf(n) === 'Drift: 6 changes needed to bring the server back to the manifests.'));
    const none = parse(renderPlanMarkdown(planOf([]), 'embedded', { command: 'drift' }));
    assert.ok(none.some((n) => textOf(n) === 'No drift: the server matches the manifests.'));
  });

  it('a 2,000-create plan stays under the cap, counts what it leaves out and still parses', () => {
    const changes = [...Array.from({ length: 2000 }, (_, i) => create('Rule', `rule-${String(i).padStart(4, '0')}`)), remove('Rule', 'gone')];
    const markdown = renderPlanMarkdown(planOf(changes), 'https://svc.example.com');
    assert.ok(markdown.length <= DEFAULT_MARKDOWN_MAX_CHARS, `${markdown.length} characters`);
    assert.ok(markdown.length > DEFAULT_MARKDOWN_MAX_CHARS - 2000, 'the room is used, not wasted');
    const nodes = parse(markdown);
    const items = nodes.find((n) => n.type === 'list')!.children!.map(textOf);
    assert.match(items[0], /^🗑️ delete Rule\/gone/);
    const note = /^… ([\d,]+) more changes not shown$/.exec(items[items.length - 1]);
    assert.ok(note, items[items.length - 1]);
    assert.equal(items.length - 1 + Number(note[1].replace(/,/g, '')), 2001);
    assert.equal(textOf(nodes[nodes.length - 1]), 'Plan: 2000 to create, 0 to update, 1 to delete, 0 unchanged.');
  });

  it('puts as many whole diffs as fit in the collapsed block and says how many are left out', () => {
    const big = 'x'.repeat(3000);
    const changes = Array.from({ length: 10 }, (_, i) => update('Rule', `r${i}`, [{ pointer: '/note', before: `${big}${i}`, after: `${big}${i + 1}` }]));
    const markdown = renderPlanMarkdown(planOf(changes), 'embedded', { maxChars: 20_000 });
    assert.ok(markdown.length <= 20_000, `${markdown.length} characters`);
    const nodes = parse(markdown);
    const open = nodes.find((n) => n.type === 'html' && n.value!.startsWith('<details>'))!;
    const shown = Number(/first (\d+) of 10 changes/.exec(open.value!)?.[1]);
    assert.ok(shown > 0 && shown < 10, open.value);
    const code = nodes.find((n) => n.type === 'code')!.value!.split('\n');
    assert.equal(code.filter((l) => l.startsWith('~ update')).length, shown);
    assert.equal(code[code.length - 1], `  … ${10 - shown} more changes not shown`);
    assert.equal(nodes[nodes.length - 1].type, 'paragraph');
    assert.equal(nodes.find((n) => n.type === 'list')!.children!.length, 10, 'every change is still listed');
  });
});
