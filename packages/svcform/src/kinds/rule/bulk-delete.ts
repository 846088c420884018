import { ApiError, TransportError } from '../../client/errors.js';
import type { AdapterContext, BatchOutcome, LiveObject } from '../types.js';

/**
 * Bulk deletes of detection rules through `POST /api/detection_engine/rules/_bulk_action`
 * `{action: delete, ids}` (wire-facts 2.1), in chunks of the route's limit, several at once.
 * Every rule's outcome is read from the answer (`attributes.results.deleted` and
 * `attributes.errors[].rules`; a partial failure answers 500 with the same body):
 * - deleted: done;
 * - "not found" (a repeat of a delete that landed, or someone else's delete): unknown, so the
 *   engine reads the space back and a rule that is gone is done;
 * - any other error naming the rule: failed, with the server's message;
 * - not named at all, or a lost answer: unknown (read back).
 * A rule without a server id (never the case for a listed rule) is deleted alone.
 */

const BULK_ACTION_PATH = '/api/detection_engine/rules/_bulk_action';
/** The route refuses more than 100 ids (RULES_TABLE_MAX_PAGE_SIZE, K-DE bulk_actions route). */
const CHUNK_IDS = 100;

interface Item {
  index: number;
  id: string;
}

export async function deleteRules(ctx: AdapterContext, space: string, lives: LiveObject[]): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = lives.map(() => ({ status: 'alone' }));
  const items: Item[] = [];
  lives.forEach((live, index) => {
    if (live.serverId) items.push({ index, id: live.serverId });
  });
  const chunks: Item[][] = [];
  for (let i = 0; i < items.length; i += CHUNK_IDS) chunks.push(items.slice(i, i + CHUNK_IDS));
  await Promise.all(chunks.map((chunk) => deleteChunk(ctx, space, chunk, outcomes)));
  return outcomes;
}

async function deleteChunk(ctx: AdapterContext, space: string, chunk: Item[], outcomes: BatchOutcome[]): Promise<void> {
  let body: any;
  try {
    // Repeating it is harmless (a rule deleted twice is "not found", settled by reading back).
    const res = await ctx.api.request({ method: 'POST', path: BULK_ACTION_PATH, space, idempotent: true, body: { action: 'delete', ids: chunk.map((i) => i.id) } });
    body = res.body;
  } catch (err) {
    if (err instanceof ApiError && err.status === 500 && (err.body as any)?.attributes?.results) body = err.body;
    else {
      const refused = err instanceof ApiError && !err.ambiguous && err.status < 500 && err.status !== 429;
      const lost = (err instanceof ApiError || err instanceof TransportError) && (err.ambiguous || !refused);
      for (const i of chunk) outcomes[i.index] = refused ? { status: 'alone' } : lost ? { status: 'unknown', reason: (err as Error).message } : { status: 'failed', error: (err as Error).message };
      return;
    }
  }
  const deleted = new Set<string>((body?.attributes?.results?.deleted ?? []).map((r: { id?: string }) => r?.id));
  const failed = new Map<string, { status?: number; message?: string }>();
  for (const e of body?.attributes?.errors ?? []) for (const r of e?.rules ?? []) failed.set(r?.id, { status: e.status_code, message: e.message });
  for (const i of chunk) {
    const error = failed.get(i.id);
    if (deleted.has(i.id)) outcomes[i.index] = { status: 'done' };
    else if (error && error.status !== 404) outcomes[i.index] = { status: 'failed', error: `bulk delete: ${error.message ?? 'refused'}` };
    else outcomes[i.index] = { status: 'unknown', reason: error?.message ?? 'the bulk delete did not name this rule' };
  }
}
