import { wildcardMatcher, wildcardPattern } from './regex/wildcard.js';
import { fieldValues } from './event-fields.js';
import type { ValueTest } from './keyword-match.js';
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

/** A field-name pattern: only `*` is a wildcard there. */
function fieldPatternTest(pattern: string): (name: string) => boolean {
  const matcher = wildcardMatcher(wildcardPattern(pattern.split(/(\*)/).map((part) => (part === '*' ? { wildcard: '*' as const } : part))), false);
  return (name) => matcher.test(name);
}

/**
 * A test of an event: whether any value of the field passes `test`. No field (a bare value in a
 * query) means any field of the event; a name with `*` means any field whose dotted name fits it.
 */
export function anyFieldValue(field: string | null, test: ValueTest): (doc: EventDoc) => boolean {
  if (field === null) return (doc) => [...leafFields(doc).values()].some((values) => values.some(test));
  if (field.includes('*')) {
    const fits = fieldPatternTest(field);
    return (doc) => [...leafFields(doc)].some(([name, values]) => fits(name) && values.some(test));
  }
  return (doc) => fieldValues(doc, field).some(test);
}
