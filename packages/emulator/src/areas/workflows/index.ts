import type { EmulatorArea } from '../../area.js';
import type { EmulatorContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { createWorkflow, listItem, renderWorkflow, updateWorkflow, workflowNotFound, type StoredWorkflow } from './workflows.js';

interface WorkflowsState {
  workflows: Record<string, StoredWorkflow>;
}

function stateOf(ctx: EmulatorContext, space: string): WorkflowsState {
  return ctx.store.area<WorkflowsState>(space, 'workflows', () => ({ workflows: {} }));
}

const own = (state: WorkflowsState, id: string): StoredWorkflow | undefined =>
  Object.prototype.hasOwnProperty.call(state.workflows, id) ? state.workflows[id] : undefined;

/** A workflow that answers: not soft-deleted. */
const live = (state: WorkflowsState, id: string): StoredWorkflow | undefined => {
  const wf = own(state, id);
  return wf && !wf.deleted_at ? wf : undefined;
};

/** Whether the space holds a (not deleted) workflow: what the agent builder's workflow tools check. */
export function workflowExists(ctx: EmulatorContext, space: string, id: string): boolean {
  return !!live(stateOf(ctx, space), id);
}

/** The list's query keys (get_workflows.ts querySchema): any other is refused by route validation. */
const LIST_QUERY = new Set(['query', 'size', 'page', 'enabled', 'createdBy', 'tags', 'managed', 'visibilityContext', 'sortField', 'sortOrder']);

function positive(q: URLSearchParams, name: string, fallback: number): number {
  const raw = q.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || Number.isNaN(n)) throw badRequest(`[request query.${name}]: expected value of type [number] but got [string]`);
  if (n < 1) throw badRequest(`[request query.${name}]: Value must be equal to or greater than [1].`);
  return n;
}

/** The page size when none is asked for (MAX_PAGE_SIZE of the route's constants; its value is inferred). */
const DEFAULT_SIZE = 100;

/**
 * Workflows (/api/workflows), space-scoped. Reads need `read`, writes `all` (route_security.ts).
 * The list pages (`{page, size, total, results}`, sorted by name); a delete without force is soft.
 */
export const workflowsArea: EmulatorArea = {
  name: 'workflows',
  register(router) {
    router.get('/api/workflows', (req, ctx) => {
      for (const key of req.query.keys()) if (!LIST_QUERY.has(key)) throw badRequest(`[request query.${key}]: definition for this key is missing`);
      const size = positive(req.query, 'size', DEFAULT_SIZE);
      const page = positive(req.query, 'page', 1);
      const all = Object.values(stateOf(ctx, req.space).workflows).filter((w) => !w.deleted_at).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
      return { body: { page, size, total: all.length, results: all.slice((page - 1) * size, page * size).map(listItem) } };
    }, { access: 'read' });

    router.get('/api/workflows/workflow/:id', (req, ctx) => {
      const wf = live(stateOf(ctx, req.space), req.params.id);
      if (!wf) throw workflowNotFound(req.params.id);
      return { body: renderWorkflow(wf) };
    }, { access: 'read' });

    router.post('/api/workflows/workflow', (req, ctx) => {
      const state = stateOf(ctx, req.space);
      const wf = createWorkflow(req.body, (id) => own(state, id), ctx.now(), req.user);
      state.workflows[wf.id] = wf;
      return { body: renderWorkflow(wf) };
    });

    router.put('/api/workflows/workflow/:id', (req, ctx) => {
      const wf = live(stateOf(ctx, req.space), req.params.id);
      if (!wf) throw workflowNotFound(req.params.id);
      return { body: updateWorkflow(wf, req.body, ctx.now(), req.user) };
    });

    router.delete('/api/workflows/workflow/:id', (req, ctx) => {
      const state = stateOf(ctx, req.space);
      const wf = live(state, req.params.id);
      if (!wf) throw workflowNotFound(req.params.id);
      const force = req.query.get('force');
      if (force !== null && force !== 'true' && force !== 'false') throw badRequest('[request query.force]: expected value of type [boolean] but got [string]');
      if (force === 'true') delete state.workflows[wf.id];
      else wf.deleted_at = ctx.now().toISOString();
      // An empty 200 (examples/delete_workflow.yaml has no body).
      return { text: '' };
    });
  },
};
