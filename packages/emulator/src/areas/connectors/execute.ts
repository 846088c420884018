import type { EmulatorContext } from '../../context.js';
import { notFound } from '../../errors.js';
import type { EmuRequest } from '../../router.js';
import { describe } from './types.js';
import { BUILT_IN, builtInOrThrow, connectorsState, findConnector, storedConnector } from './state.js';
import { schema, validateRequest } from '../../config-schema.js';

/** `_execute`: nothing is sent out; each run is recorded, and .index documents are kept per index. */

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

/** Params problems come back as an execution result with status error, not as an HTTP error. */
function paramsProblem(typeId: string, params: Record<string, unknown>): string | undefined {
  if (typeId === '.server-log') {
    if (typeof params.message !== 'string') return `[message]: expected value of type [string] but got [${params.message === undefined ? 'undefined' : describe(params.message)}]`;
    if (params.level !== undefined && !LOG_LEVELS.includes(params.level as string)) return `[level]: expected one of [${LOG_LEVELS.join(', ')}] but got [${String(params.level)}]`;
  } else if (typeId === '.webhook') {
    if (params.body !== undefined && typeof params.body !== 'string') return `[body]: expected value of type [string] but got [${describe(params.body)}]`;
  } else if (typeId === '.index') {
    const docs = params.documents;
    if (!Array.isArray(docs)) return `[documents]: expected value of type [array] but got [${docs === undefined ? 'undefined' : describe(docs)}]`;
    const bad = docs.findIndex((d) => d === null || typeof d !== 'object' || Array.isArray(d));
    if (bad >= 0) return `[documents.${bad}]: expected value of type [object] but got [${describe(docs[bad])}]`;
  }
  return undefined;
}

export function execute(req: EmuRequest, ctx: EmulatorContext) {
  // The execute body schema: `{params: recordOf(string, any)}` and nothing else.
  const body = validateRequest(schema.object({ params: schema.recordOf(schema.any()) }), req.body ?? null);
  const params = body.params as Record<string, unknown>;
  const state = connectorsState(ctx, req.space);
  const connector = findConnector(ctx, req.space, req.params.id);
  if (!connector) throw notFound(`Saved object [action/${req.params.id}] not found`);
  if (BUILT_IN.some((b) => b.id === connector.id && b.is_system_action)) builtInOrThrow(connector.id, 'executed');
  const problem = paramsProblem(connector.connector_type_id, params);
  if (problem) {
    return { body: { connector_id: connector.id, status: 'error', message: `error validating action params: ${problem}`, retry: false, errorSource: 'user' } };
  }
  const recorded: Record<string, unknown> = { ...params };
  if (connector.connector_type_id === '.server-log') recorded.level = params.level ?? 'info';
  state.executions.push({ connector_id: connector.id, connector_type_id: connector.connector_type_id, at: ctx.now().toISOString(), params: recorded });
  if (connector.connector_type_id === '.index') {
    const index = String(storedConnector(ctx, req.space, connector.id)?.config.index);
    if (!Object.prototype.hasOwnProperty.call(state.indices, index)) {
      Object.defineProperty(state.indices, index, { value: [], enumerable: true, writable: true, configurable: true });
    }
    state.indices[index].push(...(params.documents as Record<string, unknown>[]));
  }
  return { body: { connector_id: connector.id, status: 'ok' } };
}
