import type { Reference } from '../types.js';

/**
 * A rule's investigation template: `timeline_id` is the template's templateTimelineId, the
 * identity of a TimelineTemplate manifest. Naming it makes the template a dependency of the rule
 * (created first, deleted after). The server stores the id unchecked (wire-facts §16 #8), so a
 * template that exists nowhere is accepted: a plan warning, not an error.
 */
export function timelineReference(id: string): Reference {
  return { kind: 'TimelineTemplate', name: id, path: ['spec', 'timeline_id'], whenMissing: 'accepted', missingEffect: "investigating the rule's alerts opens no template until it exists" };
}

export function timelineReferences(spec: Record<string, any>): Reference[] {
  return typeof spec.timeline_id === 'string' ? [timelineReference(spec.timeline_id)] : [];
}
