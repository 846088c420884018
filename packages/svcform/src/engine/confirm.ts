import { ApiError, outcomeUnknown } from '../client/errors.js';
import type { AdapterContext, KindAdapter, LiveObject } from '../kinds/types.js';
import { compareWithLive } from './compare.js';
import type { CreateChange, DeleteChange, UpdateChange } from './plan.js';
import { listWhere } from './spaceless.js';

/** Creates tried in all when each attempt's answer is lost and the server shows nothing. */
const MAX_CREATE_ATTEMPTS = 3;

/**
 * Why a create's outcome is unknown: the server says the id is taken, or no attempt got a clear
 * answer (no answer, a server error, or any failure after an earlier attempt that may have landed).
 */
function uncertainty(err: unknown): 'lost answer' | 'conflict' | undefined {
  if (err instanceof ApiError && err.status === 409) return 'conflict';
  return outcomeUnknown(err) ? 'lost answer' : undefined;
}

function matchesManifest(ctx: AdapterContext, adapter: KindAdapter, change: CreateChange | UpdateChange, live: LiveObject): boolean {
  return compareWithLive(adapter, change.resource, live, change.ignore, ctx.run).equal;
}

/**
 * An update or delete whose last attempt failed without a clear answer may still have landed.
 * svcform reads the object back: if the server holds what the change meant to leave (the manifest,
 * or nothing), the change is done and the summary says so; otherwise the failure stands.
 */
export async function settled(ctx: AdapterContext, adapter: KindAdapter, change: UpdateChange | DeleteChange, write: () => Promise<void>): Promise<string | undefined> {
  try {
    await write();
    return undefined;
  } catch (err) {
    // Secrets cannot be read back, so a rotation's outcome cannot be confirmed.
    if (!outcomeUnknown(err) || change.reason === 'rotate secrets') throw err;
    let found: LiveObject[];
    try {
      found = (await listWhere(ctx, adapter, change)).filter((o) => o.name === change.name);
    } catch {
      throw err;
    }
    if (change.action === 'delete' && found.length === 0) return 'confirmed gone from the server after a failed answer';
    if (change.action === 'update' && found.length === 1 && matchesManifest(ctx, adapter, change, found[0])) return 'confirmed on the server after a failed answer';
    throw err;
  }
}

/**
 * A create is never blindly repeated. When its answer is lost (a gateway's 504, a reset after the
 * request was sent) or the server answers 409 "already exists" (a repeat of a create that did land,
 * or another apply), svcform reads the object's identity back: if the server holds exactly what
 * the manifest says, the create is done; if it holds nothing, the create is tried again; anything
 * else is a failure that says what the server holds. So a kind whose identity the server does not
 * enforce (maintenance windows, by title) is never duplicated, and the summary matches the server.
 */
export async function createConfirmed(ctx: AdapterContext, adapter: KindAdapter, change: CreateChange): Promise<string | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    let why: 'lost answer' | 'conflict' | undefined;
    try {
      await adapter.create(ctx, change.resource);
      return attempt > 1 ? `created on attempt ${attempt}, after a lost answer` : undefined;
    } catch (err) {
      why = uncertainty(err);
      if (!why) throw err;
      const found = (await listWhere(ctx, adapter, change)).filter((o) => o.name === change.name);
      if (found.length > 1) {
        throw new Error(`${(err as Error).message}; the server now holds ${found.length} objects of this identity (ids: ${found.map((o) => o.serverId ?? o.name).join(', ')}): remove the extra ones, then run again`);
      }
      if (found.length === 1) {
        if (matchesManifest(ctx, adapter, change, found[0])) return why === 'conflict' ? 'already on the server, as the manifest says (409 on create)' : 'confirmed on the server after a lost answer';
        throw new Error(`${(err as Error).message}; the server holds this object and it differs from the manifest (made by someone else meanwhile?): run plan again`);
      }
      if (why === 'conflict' || attempt >= MAX_CREATE_ATTEMPTS) throw err;
    }
  }
}

export type Settled = { status: 'done'; note: string } | { status: 'failed'; error: string } | { status: 'missing' };

/**
 * The batch form of the same rule: writes of one space whose outcome is unknown (a bulk call's
 * answer was lost, or did not say which objects it refused) are settled with one listing. An
 * object the server holds as the manifest says is done; for a create, one that differs or several
 * of one identity fail; anything else (`missing`) is written again on its own (a create with
 * createConfirmed, an update, a full replace, as it is).
 */
export async function settleWrites(ctx: AdapterContext, adapter: KindAdapter, space: string, changes: Array<CreateChange | UpdateChange | DeleteChange>): Promise<Settled[]> {
  const byName = new Map<string, LiveObject[]>();
  for (const o of await adapter.list(ctx, space)) byName.set(o.name, [...(byName.get(o.name) ?? []), o]);
  return changes.map((change): Settled => {
    const found = byName.get(change.name) ?? [];
    if (change.action === 'delete') return found.length === 0 ? { status: 'done', note: 'confirmed gone from the server after an unclear bulk answer' } : { status: 'missing' };
    const confirmed = { status: 'done', note: 'confirmed on the server after an unclear bulk answer' } as const;
    if (change.action === 'update') return found.length === 1 && matchesManifest(ctx, adapter, change, found[0]) ? confirmed : { status: 'missing' };
    if (found.length > 1) {
      return { status: 'failed', error: `the server holds ${found.length} objects of this identity (ids: ${found.map((o) => o.serverId ?? o.name).join(', ')}): remove the extra ones, then run again` };
    }
    if (found.length === 0) return { status: 'missing' };
    if (matchesManifest(ctx, adapter, change, found[0])) return confirmed;
    return { status: 'failed', error: 'the server holds this object and it differs from the manifest (made by someone else meanwhile?): run plan again' };
  });
}

