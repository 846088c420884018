import { clone } from '../kinds/normalize.js';
import type { Resource } from '../manifest/types.js';
import { relativePointer, removeAt, setAt, getAt, comparePointers } from '../common/pointer.js';

/**
 * An ignore rule from svcform.yaml: these pointers are owned outside Git for every object of the
 * kind (in the listed spaces), as Argo CD's ignoreDifferences does. They add to each manifest's
 * own `metadata.ignore`.
 */
export interface IgnoreRule {
  kind: string;
  spaces?: string[];
  pointers: string[];
}

/** The pointers ignored for a resource: its own `metadata.ignore` plus every matching rule's. */
export function ignoredPointers(res: Pick<Resource, 'kind' | 'space' | 'ignore'>, rules: readonly IgnoreRule[]): string[] {
  const out = new Set(res.ignore);
  for (const rule of rules) {
    if (rule.kind !== res.kind || (rule.spaces && !rule.spaces.includes(res.space))) continue;
    for (const p of rule.pointers) out.add(p);
  }
  return [...out];
}

/**
 * The spec an update writes: the manifest's, with every ignored field set to what the server holds
 * now (or left out when the server holds nothing there). Ignored fields are not in the diff, so
 * whatever the kind's update verb (replace, merge or patch) an update must not change them either:
 * the plan says exactly what apply does. `liveSpec` is the live object in spec shape (the adapter's
 * normalizeLive).
 */
export function carryIgnored(spec: Record<string, any>, ignore: readonly string[], liveSpec: Record<string, any>): Record<string, any> {
  const inSpec = ignore.flatMap((p) => relativePointer(p, '/spec') || []);
  if (inSpec.length === 0) return spec;
  const out = clone(spec);
  // Later array members first, so removing one never shifts another's pointer.
  for (const pointer of [...inSpec].sort(comparePointers).reverse()) {
    const current = getAt(liveSpec, pointer);
    if (current === undefined) removeAt(out, pointer);
    else setAt(out, pointer, clone(current));
  }
  return out;
}
