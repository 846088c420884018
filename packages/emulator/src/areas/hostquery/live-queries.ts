import { badRequest, notFound } from '../../errors.js';
import type { Router } from '../../router.js';
import {
  invalid, isPlainRecord, optionalBoolean, optionalEcsMapping, optionalString, optionalStringArray, optionalTimeout, pathOf, requireObjectBody,
} from './common.js';

const BASE = '/api/hostquery/live_queries';

/**
 * The create body as the real route decodes it (osquery common/api/live_query/create_live_query_route.ts,
 * createLiveQueryRequestBodySchema): an io-ts `t.partial`, so every key is optional and unknown keys
 * pass, while each known key must have its type; `queries` is osquery-io-ts-types' arrayQueries, an
 * array of `t.type({id, query, ecs_mapping?, version?, platform?, removed?, snapshot?})`.
 */
function checkCreateBody(raw: unknown): Record<string, any> {
  const body = requireObjectBody(raw);
  for (const key of ['agent_ids', 'agent_platforms', 'agent_policy_ids', 'alert_ids', 'case_ids', 'event_ids', 'tags']) optionalStringArray(body, key);
  optionalBoolean(body, 'agent_all');
  for (const key of ['query', 'saved_query_id', 'pack_id']) optionalString(body, key);
  optionalTimeout(body, 'timeout');
  optionalEcsMapping(body, 'ecs_mapping');
  if (body.metadata !== undefined && (typeof body.metadata !== 'object' || body.metadata === null)) throw invalid('metadata', body.metadata);
  if (body.queries !== undefined) {
    if (!Array.isArray(body.queries)) throw invalid('queries', body.queries);
    for (const query of body.queries) {
      if (!isPlainRecord(query)) throw invalid('queries', query);
      for (const key of ['id', 'query']) if (typeof query[key] !== 'string') throw invalid(pathOf('queries', key), query[key]);
      for (const key of ['version', 'platform']) optionalString(query, key, pathOf('queries', key));
      for (const key of ['removed', 'snapshot']) optionalBoolean(query, key, pathOf('queries', key));
      optionalEcsMapping(query, 'ecs_mapping', pathOf('queries', 'ecs_mapping'));
    }
  }
  return body;
}

/**
 * Live queries (service-api.md Host queries): "Live queries need at least one enrolled agent
 * running the host-query integration." The emulator enrolls no agents, so a well-formed request
 * always ends in that documented failure, and no live query ever exists to be read.
 */
export function registerLiveQueries(router: Router): void {
  router.post(BASE, (req) => {
    const body = checkCreateBody(req.body);
    const hasQuery = typeof body.query === 'string' && body.query.length > 0;
    const hasQueries = Array.isArray(body.queries) && body.queries.length > 0;
    const hasSource = typeof body.saved_query_id === 'string' || typeof body.pack_id === 'string';
    if (!hasQuery && !hasQueries && !hasSource) throw invalid('query', body.query);
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
