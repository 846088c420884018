import type { Reference } from './types.js';

/**
 * A rule's investigation template: `timeline_id` is the template's templateTimelineId, the
 * identity of a TimelineTemplate manifest. Naming it makes the template a dependency of the rule
 * (created first, deleted after), and a template that exists nowhere a plan error.
 */
export function timelineReferences(spec: Record<string, any>): Reference[] {
  return typeof spec.timeline_id === 'string' ? [{ kind: 'TimelineTemplate', name: spec.timeline_id, path: ['spec', 'timeline_id'] }] : [];
}
