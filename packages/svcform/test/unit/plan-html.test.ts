import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { FieldChange } from '../../src/engine/diff.js';
import type { Plan, PlannedChange, UnmanagedObject } from '../../src/engine/plan.js';
import { redactor } from '../../src/manifest/redact.js';
import { htmlText, renderPlanHtml } from '../../src/report/html.js';
import { PAGE_SCRIPT, PAGE_STYLE } from '../../src/report/html-assets.js';
import { layoutGraph, NODE_WIDTH } from '../../src/report/html-graph.js';
import { resource } from '../helpers/resource.js';

const base = (kind: string, name: string, dependsOn: string[] = [], space = 'default') => ({ id: `${kind}/${space}/${name}`, kind, space, name, patch: [], dependsOn, wave: 0 });
const live = (kind: string, name: string) => ({ kind, space: 'default', name, body: {} });
const create = (kind: string, name: string, dependsOn: string[] = [], space = 'default'): PlannedChange => ({ ...base(kind, name, dependsOn, space), action: 'create', fields: [], resource: resource(kind, name, {}), ignore: [] });
const update = (kind: string, name: string, fields: FieldChange[], dependsOn: string[] = []): PlannedChange => ({ ...base(kind, name, dependsOn), action: 'update', fields, resource: resource(kind, name, {}), live: live(kind, name), ignore: [] });
const remove = (kind: string, name: string, dependsOn: string[] = []): PlannedChange => ({ ...base(kind, name, dependsOn), action: 'delete', fields: [], live: live(kind, name) });

function planOf(changes: PlannedChange[], unmanaged: UnmanagedObject[] = []): Plan {
  const n = (action: string) => changes.filter((c) => c.action === action).length;
  return { changes, errors: [], unmanaged, summary: { create: n('create'), update: n('update'), delete: n('delete'), unchanged: 0, unmanaged: unmanaged.length }, liveFingerprint: 'x', desiredFingerprint: 'y' };
}

/** A connector, a rule that uses it and an exception list the rule names; a rule delete before its connector's. */
function orderedPlan(): Plan {
  return planOf([
    create('Connector', 'chat'),
    create('ExceptionList', 'allow'),
    create('Rule', 'uses-both', ['Connector/default/chat', 'ExceptionList/default/allow']),
    update('Rule', 'then', [{ pointer: '/severity', before: 'low', after: 'high' }], ['Rule/default/uses-both']),
    remove('Rule', 'old'),
    remove('Connector', 'old-chat', ['Rule/default/old']),
  ]);
}

describe('the HTML plan: the order graph (issue 33 part 5)', () => {
  it('places each change in the column of its dependency depth, one edge per dependsOn, every arrow pointing right', () => {
    const layout = layoutGraph(orderedPlan().changes);
    const layer = Object.fromEntries(layout.nodes.map((n) => [n.change.id, n.layer]));
    assert.deepEqual(layer, {
      'Connector/default/chat': 0,
      'ExceptionList/default/allow': 0,
      'Rule/default/old': 0,
      'Rule/default/uses-both': 1,
      'Connector/default/old-chat': 1,
      'Rule/default/then': 2,
    });
    assert.deepEqual(
      layout.edges.map((e) => `${e.from} -> ${e.to}`).sort(),
      ['Connector/default/chat -> Rule/default/uses-both', 'ExceptionList/default/allow -> Rule/default/uses-both', 'Rule/default/old -> Connector/default/old-chat', 'Rule/default/uses-both -> Rule/default/then'],
    );
    const at = new Map(layout.nodes.map((n) => [n.change.id, n]));
    for (const e of layout.edges) assert.ok(at.get(e.from)!.x + NODE_WIDTH < at.get(e.to)!.x, `${e.from} -> ${e.to}`);
    // No two nodes overlap.
    const spots = new Set(layout.nodes.map((n) => `${n.x},${n.y}`));
    assert.equal(spots.size, layout.nodes.length);
    assert.ok(layout.nodes.every((n) => n.x + NODE_WIDTH <= layout.width && n.y < layout.height));
  });

  it('ignores names of changes outside the plan, survives a cycle, and a chain of 20,000 changes', () => {
    const cyc = layoutGraph([create('Rule', 'a', ['Rule/default/b', 'Connector/default/not-in-plan']), create('Rule', 'b', ['Rule/default/a'])]);
    assert.equal(cyc.nodes.length, 2);
    assert.equal(cyc.edges.length, 1, 'the edge closing the cycle is left out');
    const chain = Array.from({ length: 20_000 }, (_, i) => create('Rule', `r${i}`, i ? [`Rule/default/r${i - 1}`] : []));
    const deep = layoutGraph(chain);
    assert.equal(Math.max(...deep.nodes.map((n) => n.layer)), 19_999);
  });
});

describe('the HTML plan: one self-contained page', () => {
  it('allows only its own inline style and script, by hash, and names no other resource', () => {
    const page = renderPlanHtml(orderedPlan(), 'https://svc.example.com');
    const sha = (t: string) => createHash('sha256').update(t).digest('base64');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1];
    assert.equal(csp, `default-src 'none'; style-src 'sha256-${sha(PAGE_STYLE)}'; script-src 'sha256-${sha(PAGE_SCRIPT)}'; base-uri 'none'; form-action 'none'`);
    assert.ok(page.includes(`<style>${PAGE_STYLE}</style>`) && page.includes(`<script>${PAGE_SCRIPT}</script>`));
    assert.equal(page.match(/<script/g)?.length, 1);
    assert.doesNotMatch(page, /<link|<img|<iframe|\ssrc=|@import|url\((?!#arrow\))/);
    // The only absolute URLs: the SVG namespace and the target shown as text.
    assert.deepEqual([...new Set(page.match(/https?:\/\/[^\s"<]+/g))].sort(), ['http://www.w3.org/2000/svg', 'https://svc.example.com']);
  });

  it('groups the changes by kind, then space, each with its diff and links to what it waits for', () => {
    const plan = orderedPlan();
    plan.changes.push(create('Rule', 'elsewhere', [], 'soc-eu'));
    const page = renderPlanHtml(plan, undefined);
    const headings = [...page.matchAll(/<h3>([^<]+) <span|<h4>space <code>([^<]+)<\/code>/g)].map((m) => m[1] ?? `  ${m[2]}`);
    assert.deepEqual(headings, ['Connector', '  default', 'ExceptionList', '  default', 'Rule', '  default', '  soc-eu']);
    assert.match(page, /<span class="del">-   low<\/span>\n<span class="add">\+   high<\/span>/);
    assert.match(page, /Waits for <a href="#change-3">Rule\/default\/uses-both<\/a>/);
    assert.doesNotMatch(page, /Target:/, '--hide-target');
    assert.equal((page.match(/<g class="node /g) ?? []).length, plan.changes.length);
  });

  it('shows a name, a value, a reason or a warning holding markup as text', () => {
    const hostile = '<script>window.pwned=1</script><img src=x onerror=alert(1)>"\'&';
    const plan = planOf([update('Rule', hostile, [{ pointer: `/tags`, added: [hostile], removed: [] }, { pointer: '/note', before: hostile, after: 'x' }])], [{ kind: 'Rule', space: 'default', name: hostile }]);
    plan.warnings = [{ subject: hostile, message: hostile }];
    const page = renderPlanHtml(plan, hostile);
    assert.equal(page.match(/<script/g)?.length, 1, 'only the page script');
    assert.doesNotMatch(page, /<img|onerror=alert\(1\)>/);
    assert.ok(page.includes(htmlText(hostile)));
    assert.equal(htmlText(hostile), '&lt;script&gt;window.pwned=1&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
  });

  it('redacts secrets with the redactor every plan uses, before escaping (a secret with < or & too)', () => {
    const secret = 'hunter2<&>"-html-test';
    redactor.add(secret);
    const plan = planOf([update('Connector', 'c', [{ pointer: '/config/token', before: `a ${secret} b`, after: secret, sensitive: true }])], [{ kind: 'Rule', space: 'default', name: secret }]);
    const page = renderPlanHtml(plan, `https://u:${secret}@svc.example.com`);
    assert.ok(!page.includes('hunter2'), 'in no form');
    assert.match(page, /\(sensitive\)/);
  });

  it('names the unmanaged objects always; in drift mode marks every change as drift, in plan mode none', () => {
    const plan = planOf([update('Rule', 'moved', [{ pointer: '/severity', before: 'low', after: 'high' }])], [{ kind: 'Rule', space: 'default', name: 'by-hand', id: 'abc-123' }]);
    const drift = renderPlanHtml(plan, undefined, { command: 'drift' });
    assert.match(drift, /<title>svcform drift<\/title>/);
    assert.match(drift, /<h2>1 unmanaged object<\/h2> outside every manage scope, left alone/);
    assert.match(drift, /<code>Rule\/by-hand \(space default, id abc-123\)<\/code>/);
    assert.match(drift, /Drift: 1 change needed to bring the server back to the manifests/);
    assert.match(drift, /<details class="change update drift"/);
    assert.match(drift, /<g class="node update drift"/);
    const planned = renderPlanHtml(plan, undefined);
    assert.doesNotMatch(planned, /class="[^"]*\bdrift\b|Drift:/);
    assert.match(planned, /Rule\/by-hand/);
    const empty = renderPlanHtml(planOf([]), undefined, { command: 'drift' });
    assert.match(empty, /No drift: the server matches the manifests\./);
    assert.doesNotMatch(empty, /<svg/);
  });
});
