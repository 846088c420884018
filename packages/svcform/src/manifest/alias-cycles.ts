import type { Document, Node } from 'yaml';
import { yaml } from '../common/yaml.js';

/**
 * Aliases can make a parsed document contain itself (`&m {<<: *m}`, `&a [*a]`); every later step
 * would then walk it forever, so the loader refuses such a document and points at the alias.
 */

/** Whether a value contains itself (aliases can make the parsed value cyclic). Iterative: depth is not bounded by the stack. */
export function hasCycle(root: unknown): boolean {
  const onPath = new Set<object>();
  const stack: Array<{ node: object; children: unknown[]; next: number }> = [];
  const enter = (v: unknown): boolean => {
    if (!v || typeof v !== 'object') return false;
    if (onPath.has(v)) return true;
    onPath.add(v);
    stack.push({ node: v, children: Array.isArray(v) ? v : Object.values(v), next: 0 });
    return false;
  };
  if (enter(root)) return true;
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.next < top.children.length) {
      if (enter(top.children[top.next++])) return true;
    } else {
      onPath.delete(top.node);
      stack.pop();
    }
  }
  return false;
}

/** Offset of the first alias that sits inside the node it refers to. */
export function cyclicAliasOffset(doc: Document.Parsed): number | undefined {
  let found: number | undefined;
  yaml().visit(doc, {
    Alias: (_, alias) => {
      const target = alias.resolve(doc);
      const inner = alias.range;
      const outer = (target as Node | undefined)?.range;
      if (inner && outer && outer[0] <= inner[0] && inner[1] <= outer[2]) {
        found = inner[0];
        return yaml().visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}
