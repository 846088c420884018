import { badRequest, notFound } from '../../errors.js';
import type { Router } from '../../router.js';
import { invalid, optionalBoolean, optionalEcsMapping, requireObjectBody } from './common.js';

const BASE = '/api/hostquery/live_queries';

/**
 * Live queries (service-api.md Host queries): "Live queries need at least one enrolled agent
 * running the host-query integration." The emulator enrolls no agents, so a well-formed request
 * always ends in that documented failure, and no live query ever exists to be read.
 */
export function registerLiveQueries(router: Router): void {
  router.post(BASE, (req) => {
    const body = requireObjectBody(req.body);
    const hasQuery = typeof body.query === 'string' && body.query.length > 0;
    const hasQueries = Array.isArray(body.queries) && body.queries.length > 0;
    const hasSource = typeof body.saved_query_id === 'string' || typeof body.pack_id === 'string';
    if (body.query !== undefined && typeof body.query !== 'string') throw invalid('query', body.query);
    if (!hasQuery && !hasQueries && !hasSource) throw invalid('query', body.query);
    optionalBoolean(body, 'agent_all');
    optionalEcsMapping(body, 'ecs_mapping');
    throw badRequest('No agents found for selection: live queries need at least one enrolled agent running the host-query integration.');
  });

  router.get(BASE, () => ({ body: { data: { items: [], total: 0 } } }));

  router.get(`${BASE}/:id`, (req) => {
    throw notFound(`Live query ${req.params.id} not found`);
  });

  router.get(`${BASE}/:id/results/:actionId`, (req) => {
    throw notFound(`Live query ${req.params.id} not found`);
  });
}
