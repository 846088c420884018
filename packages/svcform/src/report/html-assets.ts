/**
 * The HTML page's stylesheet and script (report/html.ts), inline so the page is one file that
 * fetches nothing. The page's Content-Security-Policy allows exactly these two by their SHA-256,
 * so they must stay constant text: nothing of a plan is ever spliced into them.
 */

export const PAGE_STYLE = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --panel: #f6f8fa;
  --create: #1a7f37; --update: #9a6700; --delete: #cf222e; --drift: #bc4c00; --drift-bg: #fff1e5; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --panel: #151b23;
  --create: #3fb950; --update: #d29922; --delete: #f85149; --drift: #f0883e; --drift-bg: #2a1a0d; } }
body { margin: 0 auto; max-width: 1200px; padding: 1rem 1.5rem 3rem; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); }
code, pre, .node text { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
h1 { font-size: 1.6rem; margin: .5rem 0; } h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; } h3 { font-size: 1.05rem; margin: 1rem 0 .3rem; } h4 { font-size: .95rem; margin: .6rem 0 .3rem; color: var(--muted); }
.target { color: var(--muted); margin: 0 0 .5rem; }
.banner { padding: .5rem .8rem; border-radius: 6px; margin: .4rem 0; }
.drift-banner { background: var(--drift-bg); border-left: 4px solid var(--drift); }
.delete-banner { border-left: 4px solid var(--delete); background: var(--panel); }
table.summary { border-collapse: collapse; margin: .6rem 0; } table.summary th, table.summary td { border: 1px solid var(--line); padding: .2rem .8rem; text-align: right; }
.search { position: sticky; top: 0; background: var(--bg); padding: .5rem 0; border-bottom: 1px solid var(--line); z-index: 1; }
.search input { width: min(30rem, 70%); padding: .3rem .5rem; font: inherit; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg); }
#shown { color: var(--muted); margin-left: .5rem; }
.findings ul { padding-left: 1.2rem; } .errors li { color: var(--delete); } .warnings li { color: var(--update); }
.graph-wrap { overflow: auto; max-height: 70vh; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); }
.legend { color: var(--muted); }
.edge { fill: none; stroke: var(--muted); stroke-width: 1.3; } .arrow-head { fill: var(--muted); }
.node rect { fill: var(--bg); stroke-width: 2; } .node text { fill: var(--fg); font-size: 12px; } .node .node-meta { fill: var(--muted); font-size: 11px; }
.node.create rect, .node.prerequisite rect { stroke: var(--create); } .node.update rect { stroke: var(--update); } .node.delete rect { stroke: var(--delete); }
.node.drift rect { fill: var(--drift-bg); stroke-dasharray: 5 3; }
.node.dim { opacity: .15; } .node a { cursor: pointer; }
details.change { border: 1px solid var(--line); border-left-width: 4px; border-radius: 6px; margin: .4rem 0; padding: .3rem .6rem; }
details.change.create, details.change.prerequisite { border-left-color: var(--create); } details.change.update { border-left-color: var(--update); } details.change.delete { border-left-color: var(--delete); }
details.change.drift { background: var(--drift-bg); }
details.change:target { outline: 2px solid var(--drift); }
summary { cursor: pointer; } summary h2 { display: inline; font-size: 1.1rem; }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 1rem; font-size: .8rem; font-weight: 600; color: #fff; }
.badge.create, .badge.prerequisite { background: var(--create); } .badge.update { background: var(--update); } .badge.delete { background: var(--delete); } .badge.drift-badge { background: var(--drift); }
.reason, .wave, .source { color: var(--muted); font-size: .85rem; margin-left: .4rem; }
pre.diff { background: var(--panel); padding: .5rem; border-radius: 6px; overflow-x: auto; white-space: pre; }
pre.diff .add { color: var(--create); } pre.diff .del { color: var(--delete); } pre.diff .word { color: var(--update); } pre.diff .ctx { color: var(--muted); }
.waits, .nodiff { color: var(--muted); margin: .3rem 0; }
#unmanaged ul { columns: 2; } footer { margin-top: 2rem; color: var(--muted); }
[hidden] { display: none !important; }
`;

/**
 * The search box: every whitespace-separated word must occur in an item's `data-search` (its
 * action, kind, name, space and fields); a change or unmanaged object that does not match is
 * hidden, a graph node dimmed, a group left empty hidden. Following a link to a change opens it.
 */
export const PAGE_SCRIPT = `
(function () {
  'use strict';
  var box = document.getElementById('filter');
  var shown = document.getElementById('shown');
  var items = Array.prototype.slice.call(document.querySelectorAll('[data-search]'));
  var groups = Array.prototype.slice.call(document.querySelectorAll('[data-group]'));
  function filter() {
    var words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var changes = 0, visible = 0;
    items.forEach(function (el) {
      var text = el.getAttribute('data-search');
      var hit = words.every(function (w) { return text.indexOf(w) >= 0; });
      if (el.classList.contains('node')) { el.classList.toggle('dim', !hit); return; }
      el.hidden = !hit;
      if (el.classList.contains('change')) { changes++; if (hit) visible++; }
    });
    groups.forEach(function (g) { g.hidden = !g.querySelector('[data-search]:not([hidden])'); });
    var unmanaged = document.querySelector('#unmanaged details');
    if (unmanaged && words.length) unmanaged.open = true;
    shown.textContent = (words.length ? visible + ' of ' : '') + changes + (changes === 1 ? ' change' : ' changes');
  }
  function openTarget() {
    var el = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (el && el.tagName === 'DETAILS') el.open = true;
  }
  box.addEventListener('input', filter);
  window.addEventListener('hashchange', openTarget);
  filter();
  openTarget();
})();
`;
