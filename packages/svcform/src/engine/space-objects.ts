import type { KindAdapter, LiveObject } from '../kinds/types.js';
import type { Resource } from '../manifest/types.js';
import type { PlanError, PlannedChange, PlanNotice } from './changes.js';
import { isOwned, type ManageScope } from './ownership.js';

/**
 * The spaces themselves as objects (an adapter with `containsSpaces`: Space): the one place that
 * knows what follows from every other object living in a space.
 * - A write in space S waits for the create of the Space S the run declares, and the delete of a
 *   Space waits for the deletes of what is in it.
 * - A declared space that does not exist yet is read as empty (planning.ts asks which).
 * - Deleting a space deletes everything in it (OAS delete-spaces-space-id), so a plan deletes one
 *   only when `--allow-space-delete ID` names it, never on a `manage` scope alone; the plan lists
 *   everything it saw in that space, approved or not.
 */

type AdapterFor = (kind: string) => KindAdapter | undefined;

const holdsSpaces = (kind: string, adapterFor: AdapterFor) => !!adapterFor(kind)?.containsSpaces;

/** The spaces the manifests declare as objects (the names of Space manifests). */
export function declaredSpaces(resources: readonly Resource[], adapterFor: AdapterFor): Set<string> {
  return new Set(resources.filter((r) => holdsSpaces(r.kind, adapterFor)).map((r) => r.name));
}

/** The live spaces the plan will delete: owned by a manage scope and declared by no manifest. */
export function spacesToDelete(objects: Iterable<LiveObject[]>, declared: ReadonlySet<string>, manage: ManageScope[], adapterFor: AdapterFor): string[] {
  const out: string[] = [];
  for (const list of objects) {
    for (const o of list) if (holdsSpaces(o.kind, adapterFor) && !declared.has(`${o.kind}/${o.space}/${o.name}`) && isOwned(o, manage)) out.push(o.name);
  }
  return out;
}

/** Orders writes after the create of their space, and a space's delete after the deletes in it. */
export function linkSpaceDependencies(changes: PlannedChange[], adapterFor: AdapterFor): void {
  const spaces = new Map(changes.filter((c) => holdsSpaces(c.kind, adapterFor)).map((c) => [c.name, c]));
  if (spaces.size === 0) return;
  for (const c of changes) {
    if (holdsSpaces(c.kind, adapterFor)) continue;
    const space = spaces.get(c.space);
    if (!space) continue;
    if (space.action === 'create' && c.action !== 'delete') c.dependsOn.push(space.id);
    if (space.action === 'delete' && c.action === 'delete') space.dependsOn.push(c.id);
  }
}

/** What svcform saw in a space the plan deletes: objects per kind, and kinds it could not read there. */
export interface SpaceContents {
  objects: LiveObject[];
  unread: Array<{ kind: string; error: Error }>;
}

const SHOWN_PER_KIND = 10;

function describeContents(contents: SpaceContents): string {
  // Built-in, prebuilt and managed objects come with every space: counted, not named.
  const own = contents.objects.filter((o) => !o.readOnly);
  const builtIn = contents.objects.length - own.length;
  const byKind = new Map<string, string[]>();
  for (const o of own) byKind.set(o.kind, [...(byKind.get(o.kind) ?? []), o.name]);
  const parts = [...byKind.keys()].sort().map((kind) => {
    const names = byKind.get(kind)!.sort();
    const shown = names.slice(0, SHOWN_PER_KIND).join(', ');
    return `${kind} ${names.length} (${shown}${names.length > SHOWN_PER_KIND ? `, and ${names.length - SHOWN_PER_KIND} more` : ''})`;
  });
  const seen = parts.length === 0 ? 'no object svcform manages or could manage' : `${own.length} object${own.length === 1 ? '' : 's'} svcform sees: ${parts.join('; ')}`;
  const extra = builtIn === 0 ? '' : ` (besides ${builtIn} built-in or managed object${builtIn === 1 ? '' : 's'})`;
  const unread = contents.unread.length === 0 ? '' : `; not readable there: ${contents.unread.map((u) => u.kind).sort().join(', ')}`;
  return seen + extra + unread;
}

/**
 * Each delete of a space: an error unless `allowed` names it (or when the server reserves it),
 * else a notice; either way with what lives in it. A plan that writes into a space it deletes is
 * an error too.
 */
export function checkSpaceDeletes(
  changes: PlannedChange[],
  contentsOf: (space: string) => SpaceContents,
  allowed: readonly string[],
  adapterFor: AdapterFor,
  errors: PlanError[],
  notices: PlanNotice[],
): void {
  for (const c of changes) {
    if (c.action !== 'delete' || !holdsSpaces(c.kind, adapterFor)) continue;
    const subject = `${c.kind}/${c.name}`;
    const inside = describeContents(contentsOf(c.name));
    const writes = changes.filter((w) => w.space === c.name && w.action !== 'delete' && !holdsSpaces(w.kind, adapterFor));
    if (writes.length > 0) {
      errors.push({ subject, message: `the plan deletes this space and writes into it (${writes.map((w) => `${w.kind}/${w.name}`).slice(0, SHOWN_PER_KIND).join(', ')}): declare the Space or move those manifests` });
      continue;
    }
    if (!allowed.includes(c.name)) {
      errors.push({ subject, message: `deleting space ${c.name} deletes everything in it, ${inside}. A manage scope alone never deletes a space: pass --allow-space-delete ${c.name} to approve it` });
      continue;
    }
    c.reason = 'deletes everything in the space';
    notices.push({ subject, message: `deleting space ${c.name} (approved with --allow-space-delete) deletes everything in it, ${inside}` });
  }
}
