import type { EventDoc } from './types.js';

/**
 * The values an event holds for a dotted field name, as every language's evaluator reads them.
 * Documents may nest objects (`{process: {name: x}}`), use dotted keys (`{'process.name': x}`), or
 * mix both at any level; an array stands for several values of one field (arrays of objects are
 * searched element by element). A field that is absent, or null, has no values.
 */
export function fieldValues(doc: EventDoc, field: string): unknown[] {
  const out: unknown[] = [];
  collect(doc, field.split('.'), 0, out);
  return out;
}

function collect(node: unknown, parts: string[], from: number, out: unknown[]): void {
  if (node === null || node === undefined) return;
  if (Array.isArray(node)) {
    for (const item of node) collect(item, parts, from, out);
    return;
  }
  if (from === parts.length) {
    out.push(node);
    return;
  }
  if (typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  // Try every split of the remaining name into one (possibly dotted) key and the rest.
  let key = '';
  for (let i = from; i < parts.length; i++) {
    key = i === from ? parts[i]! : `${key}.${parts[i]}`;
    if (Object.prototype.hasOwnProperty.call(record, key)) collect(record[key], parts, i + 1, out);
  }
}

/** Whether the event has at least one non-null value for the field. */
export function fieldExists(doc: EventDoc, field: string): boolean {
  return fieldValues(doc, field).length > 0;
}
