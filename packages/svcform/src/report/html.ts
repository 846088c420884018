import { createHash } from 'node:crypto';
import { compareText } from '../common/compare-text.js';
import { fieldLabel } from '../common/pointer.js';
import type { Plan, PlannedChange, UnmanagedObject } from '../engine/plan.js';
import { redactor } from '../manifest/redact.js';
import { PAGE_SCRIPT, PAGE_STYLE } from './html-assets.js';
import { layoutGraph, NODE_HEIGHT, NODE_WIDTH, type GraphLayout } from './html-graph.js';
import { changeDiffLines } from './markdown.js';
import { groupedWarnings, summaryLine, unmanagedTitle } from './text.js';

export interface HtmlOptions {
  /** The command whose output this is: the page's title; `drift` marks every change as drift. */
  command?: 'plan' | 'drift';
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Every piece of text the page shows goes through here: the process-wide redactor first (the one
 * the JSON, text and Markdown plans use, so a secret is hidden in the page exactly as there), then
 * HTML escaping, valid in element text and in quoted attributes alike. A rule named
 * `<script>...` is shown as those characters and never parsed as markup.
 */
export function htmlText(text: string): string {
  return redactor.redact(text).replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const ACTION_LABEL: Record<PlannedChange['action'], string> = { create: 'create', update: 'update', delete: 'delete', prerequisite: 'ensure' };
const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What the search box matches a change by: its action, kind, name, space, reason and changed fields, lower-cased. */
function searchText(c: PlannedChange): string {
  return [ACTION_LABEL[c.action], `${c.kind}/${c.name}`, c.kind, c.name, c.space, c.reason ?? '', ...c.fields.map((f) => fieldLabel(f.pointer))].join(' ').toLowerCase();
}

/**
 * A plan (or drift report) as one self-contained HTML page: no request leaves it (its CSS and
 * script are inline, allowed by their hashes alone in its Content-Security-Policy, which forbids
 * everything else), so it can be kept as a CI artifact and opened anywhere. It shows the summary,
 * errors and warnings, the order of the changes drawn as an SVG graph of their dependencies, each
 * change's diff grouped by kind and space, and the unmanaged live objects; a search box filters
 * the changes and the graph. `target` undefined: `--hide-target`.
 */
export function renderPlanHtml(plan: Plan, target: string | undefined, options: HtmlOptions = {}): string {
  const command = options.command ?? 'plan';
  const drift = command === 'drift';
  const anchors = new Map(plan.changes.map((c, i) => [c.id, `change-${i + 1}`]));
  const csp = `default-src 'none'; style-src ${hash(PAGE_STYLE)}; script-src ${hash(PAGE_SCRIPT)}; base-uri 'none'; form-action 'none'`;
  const s = plan.summary;
  const body: string[] = [];
  body.push(`<header><h1>svcform ${command}</h1>`);
  if (target !== undefined) body.push(`<p class="target">Target: <code>${htmlText(target)}</code></p>`);
  if (drift && plan.changes.length > 0) body.push(`<p class="banner drift-banner">Drift: ${htmlText(count(plan.changes.length, 'change'))} needed to bring the server back to the manifests. Each is marked <span class="badge drift-badge">drift</span>.</p>`);
  if (s.delete > 0) body.push(`<p class="banner delete-banner">⚠ ${htmlText(count(s.delete, 'delete'))}: the objects marked <span class="badge delete">delete</span> are removed from the server when this plan is applied.</p>`);
  body.push(
    '<table class="summary"><thead><tr><th>create</th><th>update</th><th>delete</th><th>unchanged</th><th>unmanaged</th></tr></thead>',
    `<tbody><tr><td>${s.create}</td><td>${s.update}</td><td>${s.delete}</td><td>${s.unchanged}</td><td>${s.unmanaged}</td></tr></tbody></table></header>`,
  );
  body.push(
    '<div class="search"><label for="filter">Search</label> <input type="search" id="filter" placeholder="kind, name, space, field or action" autocomplete="off">',
    ` <span id="shown" aria-live="polite">${htmlText(count(plan.changes.length, 'change'))}</span></div>`,
  );
  body.push(...findings('errors', 'Errors', plan.errors), ...findings('warnings', 'Warnings', groupedWarnings(plan)));
  if (plan.notices?.length) body.push(...findings('notices', 'Notes', plan.notices));
  if (plan.changes.length === 0) {
    // With errors, parts of the server could not be compared: "matches" would claim too much.
    if (plan.errors.length === 0) body.push(`<p class="none">${drift ? 'No drift' : 'No changes'}: the server matches the manifests.</p>`);
  } else {
    body.push(...graphSection(layoutGraph(plan.changes), anchors, drift));
    body.push(...changesSection(plan.changes, anchors, drift));
  }
  body.push(...unmanagedSection(plan.unmanaged ?? []));
  body.push(`<footer>${htmlText(summaryLine(plan))}</footer>`);
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>svcform ${command}</title>`,
    `<style>${PAGE_STYLE}</style></head><body>`,
    ...body,
    `<script>${PAGE_SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}

function findings(id: string, title: string, list: ReadonlyArray<{ subject: string; message: string; source?: { file: string; line: number; col: number } }>): string[] {
  if (list.length === 0) return [];
  const items = list.map((f) => `<li>${f.source ? `<code>${htmlText(`${f.source.file}:${f.source.line}:${f.source.col}`)}</code> ` : ''}<strong>${htmlText(f.subject)}</strong>: ${htmlText(f.message)}</li>`);
  return [`<section id="${id}" class="findings ${id}"><h2>${title}</h2><ul>`, ...items, '</ul></section>'];
}

/** The order graph: one SVG node per change, an arrow from each change to those that wait for it. */
function graphSection(layout: GraphLayout, anchors: Map<string, string>, drift: boolean): string[] {
  const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
  const out = [
    '<section id="graph-section"><h2>Order of the changes</h2>',
    '<p class="legend">An arrow goes from a change to the changes that wait for it (a connector before the rules that use it; a rule\'s delete before its connector\'s). Columns are dependency depth. Select a node to see its change.</p>',
    `<div class="graph-wrap"><svg id="graph" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="dependency graph of the changes" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrow-head"/></marker></defs>',
  ];
  for (const e of layout.edges) out.push(`<path class="edge" d="${e.d}" marker-end="url(#arrow)" data-from="${htmlText(e.from)}" data-to="${htmlText(e.to)}"/>`);
  for (const n of layout.nodes) {
    const c = n.change;
    const classes = ['node', c.action, ...(drift ? ['drift'] : [])].join(' ');
    const label = c.action === 'prerequisite' ? c.name : `${c.kind}/${c.name}`;
    out.push(
      `<g class="${classes}" data-id="${htmlText(c.id)}" data-search="${htmlText(searchText(c))}"><a href="#${anchors.get(c.id)}">`,
      `<title>${htmlText(`${ACTION_LABEL[c.action]} ${label} (space ${c.space})`)}</title>`,
      `<rect x="${n.x}" y="${n.y}" width="${NODE_WIDTH}" height="${NODE_HEIGHT}" rx="6"/>`,
      `<text x="${n.x + 8}" y="${n.y + 16}" class="node-name">${htmlText(cut(label, 30))}</text>`,
      `<text x="${n.x + 8}" y="${n.y + 32}" class="node-meta">${htmlText(cut(`${ACTION_LABEL[c.action]}${drift ? ' · drift' : ''} · ${c.space}`, 34))}</text>`,
      '</a></g>',
    );
  }
  out.push('</svg></div></section>');
  return out;
}

/** The changes by kind, then space, in the plan's order within each; each a collapsed diff. */
function changesSection(changes: readonly PlannedChange[], anchors: Map<string, string>, drift: boolean): string[] {
  const kinds = new Map<string, Map<string, PlannedChange[]>>();
  for (const c of changes) {
    const spaces = kinds.get(c.kind) ?? kinds.set(c.kind, new Map()).get(c.kind)!;
    (spaces.get(c.space) ?? spaces.set(c.space, []).get(c.space)!).push(c);
  }
  const out = ['<section id="changes"><h2>Changes</h2>'];
  for (const kind of [...kinds.keys()].sort(compareText)) {
    const spaces = kinds.get(kind)!;
    const n = [...spaces.values()].reduce((sum, list) => sum + list.length, 0);
    out.push(`<section class="kind" data-group><h3>${htmlText(kind)} <span class="count">${htmlText(count(n, 'change'))}</span></h3>`);
    for (const space of [...spaces.keys()].sort(compareText)) {
      out.push(`<section class="space" data-group><h4>space <code>${htmlText(space)}</code></h4>`);
      for (const c of spaces.get(space)!) out.push(...changeBlock(c, anchors, drift));
      out.push('</section>');
    }
    out.push('</section>');
  }
  out.push('</section>');
  return out;
}

const LINE_CLASS: Record<string, string> = { '+': 'add', '-': 'del', '~': 'word' };

function changeBlock(c: PlannedChange, anchors: Map<string, string>, drift: boolean): string[] {
  const label = c.action === 'prerequisite' ? c.name : `${c.kind}/${c.name}`;
  const waits = c.dependsOn.filter((id) => anchors.has(id));
  const meta = [
    ...(c.reason ? [`<span class="reason">${htmlText(c.reason)}</span>`] : []),
    ...(c.source ? [`<code class="source">${htmlText(`${c.source.file}:${c.source.line}`)}</code>`] : []),
    `<span class="wave">wave ${c.wave}</span>`,
  ];
  // The first line is the change's title, which the summary already shows.
  const lines = changeDiffLines(c).slice(1);
  const diff = lines.length
    ? `<pre class="diff">${lines.map((line) => `<span class="${LINE_CLASS[line[0]] ?? 'ctx'}">${htmlText(line)}</span>`).join('\n')}</pre>`
    : '<p class="nodiff">No field to show.</p>';
  const after = waits.length ? `<p class="waits">Waits for ${waits.map((id) => `<a href="#${anchors.get(id)}">${htmlText(id)}</a>`).join(', ')}</p>` : '';
  return [
    `<details class="change ${c.action}${drift ? ' drift' : ''}" id="${anchors.get(c.id)}" data-search="${htmlText(searchText(c))}">`,
    `<summary><span class="badge ${c.action}">${ACTION_LABEL[c.action]}</span>${drift ? ' <span class="badge drift-badge">drift</span>' : ''} <code class="name">${htmlText(label)}</code> ${meta.join(' ')}</summary>`,
    after,
    diff,
    '</details>',
  ];
}

/** Part 6 of issue 33: the live objects outside every manage scope, always named here (a page has room for a collapsed list). */
function unmanagedSection(objects: readonly UnmanagedObject[]): string[] {
  if (objects.length === 0) return [];
  const items = objects.map((o) => `<li data-search="${htmlText(`${o.kind}/${o.name} ${o.kind} ${o.name} ${o.space} ${o.id ?? ''} unmanaged`.toLowerCase())}"><code>${htmlText(unmanagedTitle(o))}</code></li>`);
  return [
    '<section id="unmanaged" data-group><details><summary>',
    `<h2>${htmlText(count(objects.length, 'unmanaged object'))}</h2> outside every manage scope, left alone</summary><ul>`,
    ...items,
    '</ul></details></section>',
  ];
}
