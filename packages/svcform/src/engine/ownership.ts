import type { LiveObject } from '../kinds/types.js';

/** One `manage` entry: svcform owns (and so may delete) live objects that match it. */
export interface ManageScope {
  kind: string;
  /** Spaces the scope covers; absent means every space the run touches. */
  spaces?: string[];
  selector?: {
    /** Objects must carry every one of these tags (kinds with tags only). */
    tags?: string[];
    /** metadata.name (the object's identity) must start with this. */
    namePrefix?: string;
    /** metadata.name must be one of these (what `export --manage-out` writes). */
    names?: string[];
  };
}

/**
 * svcform is stateless: it owns a live object it has no manifest for only when a `manage` scope
 * covers it. Only owned objects are ever deleted; without scopes nothing is. Read-only objects and
 * those the server makes for itself (`serverOwned`) are never owned.
 */
export function isOwned(live: LiveObject, scopes: ManageScope[]): boolean {
  if (live.readOnly || live.serverOwned) return false;
  return scopes.some((scope) => {
    if (scope.kind !== live.kind) return false;
    if (scope.spaces && !scope.spaces.includes(live.space)) return false;
    const sel = scope.selector;
    if (sel?.namePrefix !== undefined && !live.name.startsWith(sel.namePrefix)) return false;
    if (sel?.names && !sel.names.includes(live.name)) return false;
    if (sel?.tags && sel.tags.length > 0) {
      const tags = new Set(live.tags ?? []);
      if (!sel.tags.every((t) => tags.has(t))) return false;
    }
    return true;
  });
}

/** The (kind, space) pairs a scope asks to read, given the spaces the run touches anyway. */
export function scopePairs(scopes: ManageScope[], runSpaces: string[]): Array<{ kind: string; space: string }> {
  const out: Array<{ kind: string; space: string }> = [];
  for (const scope of scopes) for (const space of scope.spaces ?? runSpaces) out.push({ kind: scope.kind, space });
  return out;
}
