import type { EventDoc } from './types.js';

/**
 * Every leaf value of an event under its dotted name (`{process: {name: x}}` gives process.name),
 * for queries that name no field or name fields by pattern (`process.*`). Arrays add values to the
 * same name; objects inside arrays are walked too.
 */
export function leafFields(doc: EventDoc): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  const walk = (node: unknown, name: string) => {
    if (node === null || node === undefined) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, name);
      return;
    }
    if (typeof node === 'object') {
      for (const [key, value] of Object.entries(node as Record<string, unknown>)) walk(value, name ? `${name}.${key}` : key);
      return;
    }
    const values = out.get(name);
    if (values) values.push(node);
    else out.set(name, [node]);
  };
  walk(doc, '');
  return out;
}
