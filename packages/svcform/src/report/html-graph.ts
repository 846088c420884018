import { compareText } from '../common/compare-text.js';
import type { PlannedChange } from '../engine/plan.js';

/** Sizes of the drawing, in SVG user units (CSS pixels at 100%). */
export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 40;
const GAP_X = 70;
const GAP_Y = 14;
const MARGIN = 16;

export interface GraphNode {
  change: PlannedChange;
  /** Dependency depth: 0 for a change that waits for no other change of the plan. */
  layer: number;
  x: number;
  y: number;
}

export interface GraphEdge {
  /** The change that goes first (the one named in `dependsOn`)... */
  from: string;
  /** ...and the change that waits for it. */
  to: string;
  /** SVG path data: a curve from the right side of `from` to the left side of `to`. */
  d: string;
}

export interface GraphLayout {
  nodes: GraphNode[];
  edges: GraphEdge[];
  width: number;
  height: number;
}

/**
 * A layered drawing of the plan's order: the edges are the engine's own `dependsOn` (graph.ts:
 * a connector before the rules that use it, a rule's delete before its connector's), each change
 * placed in the column of its dependency depth, so every arrow points right. Within a column the
 * changes sit near the mean row of what they wait for (one barycentre pass), then by kind, space
 * and name, which keeps the drawing the same for the same plan.
 */
export function layoutGraph(changes: readonly PlannedChange[]): GraphLayout {
  const byId = new Map(changes.map((c) => [c.id, c]));
  const deps = (c: PlannedChange) => c.dependsOn.filter((id) => byId.has(id) && id !== c.id);
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  // Iterative depth-first walk: a chain of thousands of changes must not exhaust the stack. A cycle
  // (the plan reports it as an error) is cut where it closes.
  const depthOf = (start: PlannedChange): number => {
    const stack: Array<{ c: PlannedChange; i: number; best: number }> = [{ c: start, i: 0, best: 0 }];
    visiting.add(start.id);
    let result = 0;
    while (stack.length) {
      const top = stack[stack.length - 1];
      const ids = deps(top.c);
      if (top.i < ids.length) {
        const next = byId.get(ids[top.i++])!;
        const known = depth.get(next.id);
        if (known !== undefined) top.best = Math.max(top.best, known + 1);
        else if (!visiting.has(next.id)) {
          visiting.add(next.id);
          stack.push({ c: next, i: 0, best: 0 });
        }
        continue;
      }
      stack.pop();
      visiting.delete(top.c.id);
      depth.set(top.c.id, top.best);
      result = top.best;
      if (stack.length) stack[stack.length - 1].best = Math.max(stack[stack.length - 1].best, top.best + 1);
    }
    return result;
  };
  for (const c of changes) if (!depth.has(c.id)) depthOf(c);

  const layers: PlannedChange[][] = [];
  for (const c of changes) (layers[depth.get(c.id)!] ??= []).push(c);
  const row = new Map<string, number>();
  const byName = (a: PlannedChange, b: PlannedChange) => compareText(a.kind, b.kind) || compareText(a.space, b.space) || compareText(a.name, b.name) || compareText(a.action, b.action);
  const nodes: GraphNode[] = [];
  layers.forEach((layer, index) => {
    const centre = (c: PlannedChange) => {
      const rows = deps(c).map((id) => row.get(id)).filter((r): r is number => r !== undefined);
      return rows.length ? rows.reduce((a, b) => a + b, 0) / rows.length : 0;
    };
    const ordered = index === 0 ? [...layer].sort(byName) : [...layer].sort((a, b) => centre(a) - centre(b) || byName(a, b));
    ordered.forEach((c, i) => {
      row.set(c.id, i);
      nodes.push({ change: c, layer: index, x: MARGIN + index * (NODE_WIDTH + GAP_X), y: MARGIN + i * (NODE_HEIGHT + GAP_Y) });
    });
  });

  const at = new Map(nodes.map((n) => [n.change.id, n]));
  const edges: GraphEdge[] = [];
  for (const n of nodes) {
    for (const id of deps(n.change)) {
      const from = at.get(id)!;
      // A back edge of a cycle would point left; the plan's error names the cycle, the drawing leaves it out.
      if (from.layer >= n.layer) continue;
      const x1 = from.x + NODE_WIDTH;
      const y1 = from.y + NODE_HEIGHT / 2;
      const x2 = n.x - 6; // room for the arrow head
      const y2 = n.y + NODE_HEIGHT / 2;
      const bend = (x2 - x1) / 2;
      edges.push({ from: id, to: n.change.id, d: `M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}` });
    }
  }
  const columns = layers.length;
  const rows = Math.max(0, ...layers.map((l) => l.length));
  return {
    nodes,
    edges,
    width: columns ? 2 * MARGIN + columns * NODE_WIDTH + (columns - 1) * GAP_X : 0,
    height: rows ? 2 * MARGIN + rows * NODE_HEIGHT + (rows - 1) * GAP_Y : 0,
  };
}
