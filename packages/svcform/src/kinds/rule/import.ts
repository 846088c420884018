import { ApiError, outcomeUnknown } from '../../client/errors.js';
import type { Resource } from '../../manifest/types.js';
import type { AdapterContext, BatchOutcome, BatchWrite } from '../types.js';

/**
 * Bulk writes of detection rules through `POST /api/detection_engine/rules/_import` (wire-facts 2.1):
 * creates without `overwrite`, updates with `overwrite=true` (a full replace, as PUT), in chunks
 * well inside the server's limits. Every rule's outcome is read from the answer's `errors`:
 * - an error naming the rule: it is written alone (its own request says exactly what is wrong, or
 *   succeeds where the import would not); a create answered 409 is read back instead;
 * - errors the server cannot attribute (`rule_id: "(unknown id)"`: a line that failed the import
 *   schema, import_rules_utils.ts) leave every rule the answer does not name unknown: read back;
 * - a lost answer: the creates are unknown (read back, never imported again blindly); updates are
 *   safe to repeat and the client retries them, and when every retry fails they are read back too
 *   (an attempt whose answer was lost may have landed).
 * Rules that name exception lists (or have default exceptions) are written alone: the import re-resolves those references and
 * unlinks a list it cannot find or rewrites its id (checkRuleExceptionReferences), which a PUT
 * or POST never does.
 */

const IMPORT_PATH = '/api/detection_engine/rules/_import';
/**
 * The server takes at most 10,000 rules and 10 MiB (10,485,760 bytes) per import (K-DE
 * server/config.ts maxRuleImportExportSize, maxRuleImportPayloadBytes); chunks stay well inside
 * both, and several of them travel at once.
 */
const CHUNK_RULES = 500;
const CHUNK_BYTES = 4 * 1024 * 1024;
/**
 * Below this many writes of one kind of change, one request per rule costs no more round trips than
 * an import (a few waves of requests in flight) and answers with the route's own messages.
 */
export const MIN_BULK_WRITES = 16;

interface Line {
  index: number;
  ruleId: string;
  /** The rule's JSON as UTF-8: encoded once, which gives the chunk's size and the bytes sent. */
  bytes: Buffer;
}

const NEWLINE = Buffer.from('\n');

/**
 * Whether the import would treat this rule's write differently from a POST or PUT: it names
 * exception lists, declares default exceptions (written through their own route after the rule),
 * or is an update of a rule linked to lists (a PUT keeps its rule_default container linked).
 */
export function writtenAlone(w: BatchWrite): boolean {
  const linked = (rule: Record<string, any>) => Array.isArray(rule.exceptions_list) && rule.exceptions_list.length > 0;
  return linked(w.resource.spec) || w.resource.spec.default_exceptions !== undefined || (w.action === 'update' && linked(w.live.body));
}

/** Whether a failed import request says something about its shape (then each rule goes alone) rather than about the server. */
function requestRefused(err: unknown): boolean {
  return err instanceof ApiError && !err.ambiguous && [400, 404, 405, 413, 415, 422].includes(err.status);
}

async function importChunk(ctx: AdapterContext, space: string, update: boolean, lines: Line[], outcomes: BatchOutcome[]): Promise<void> {
  let body: any;
  try {
    const res = await ctx.api.request({
      method: 'POST',
      path: IMPORT_PATH,
      space,
      query: { overwrite: update },
      // An overwrite import is a set of full replaces: safe to repeat. A create import is not
      // (a repeat answers 409 per rule that landed), so a lost answer is settled by reading back.
      idempotent: update,
      multipart: { field: 'file', filename: 'rules.ndjson', content: Buffer.concat(lines.flatMap((l) => [l.bytes, NEWLINE])), contentType: 'application/ndjson' },
    });
    body = res.body;
  } catch (err) {
    for (const l of lines) {
      if (requestRefused(err)) outcomes[l.index] = { status: 'alone' };
      // An update import is retried by the client, so its last failure says nothing of an earlier
      // attempt that landed: every failure that leaves the outcome open is read back.
      else if (outcomeUnknown(err)) outcomes[l.index] = { status: 'unknown', reason: (err as Error).message };
      else outcomes[l.index] = { status: 'failed', error: (err as Error).message };
    }
    return;
  }
  const errors: Array<{ rule_id?: string; error?: { status_code?: number; message?: string } }> = Array.isArray(body?.errors) ? body.errors : [];
  const named = new Map<string, { status_code?: number; message?: string }>();
  let unattributed = 0;
  const sent = new Set(lines.map((l) => l.ruleId));
  for (const e of errors) {
    if (typeof e?.rule_id === 'string' && sent.has(e.rule_id)) named.set(e.rule_id, e.error ?? {});
    else unattributed += 1;
  }
  const accounted = typeof body?.success_count === 'number' && body.success_count + named.size === lines.length;
  for (const l of lines) {
    const error = named.get(l.ruleId);
    if (error) outcomes[l.index] = !update && error.status_code === 409 ? { status: 'unknown', reason: error.message ?? 'already exists' } : { status: 'alone' };
    else if (unattributed > 0 || !accounted) outcomes[l.index] = { status: 'unknown', reason: 'the import refused rules it could not name' };
    else outcomes[l.index] = { status: 'done' };
  }
}

/** The rule adapter's writeBatch: `body` builds a rule's write body (as POST and PUT send it). */
export async function importRules(
  ctx: AdapterContext,
  space: string,
  writes: BatchWrite[],
  body: (ctx: AdapterContext, res: Resource) => Promise<Record<string, any>>,
): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = writes.map(() => ({ status: 'alone' }));
  const action = writes[0]?.action;
  if (writes.length < MIN_BULK_WRITES || writes.some((w) => w.action !== action)) return outcomes;
  // Each chunk goes out as soon as it is full, so the server works on it while the next is made.
  const sent: Array<Promise<void>> = [];
  let chunk: Line[] = [];
  let chunkBytes = 0;
  const send = async () => {
    const going = importChunk(ctx, space, action === 'update', chunk, outcomes);
    going.catch(() => undefined); // seen by the Promise.all below; not unhandled meanwhile
    sent.push(going);
    chunk = [];
    chunkBytes = 0;
    await new Promise((resolve) => setImmediate(resolve));
  };
  for (const [index, w] of writes.entries()) {
    if (writtenAlone(w)) continue;
    let encoded: Buffer;
    try {
      encoded = Buffer.from(JSON.stringify(await body(ctx, w.resource)), 'utf8');
    } catch (err) {
      outcomes[index] = { status: 'failed', error: (err as Error).message };
      continue;
    }
    const size = encoded.length + 1;
    if (chunk.length > 0 && (chunk.length >= CHUNK_RULES || chunkBytes + size > CHUNK_BYTES)) await send();
    chunk.push({ index, ruleId: w.resource.name, bytes: encoded });
    chunkBytes += size;
  }
  if (chunk.length > 0) await send();
  await Promise.all(sent);
  return outcomes;
}
