import type { EmulatorArea } from '../area.js';
import type { EmulatorContext } from '../context.js';

/**
 * GET /api/status: the platform's status report, in the shape of the real route's full answer
 * (OpenAPI Kibana_HTTP_APIs_core_status_response: name, uuid, version, status {overall, core,
 * plugins}, metrics). Clients read the server version from `version.number` (the detection-rules
 * Python client does, wire-facts §15). The emulator stands for the version service-api.md documents.
 */

export const SERVER_VERSION = '9.4.3';

const available = (summary: string) => ({ level: 'available', summary, meta: {} });

function status(ctx: EmulatorContext) {
  return {
    name: 'svcform-emulator',
    uuid: '00000000-0000-4000-8000-000000000001',
    version: {
      number: SERVER_VERSION,
      build_hash: '0000000000000000000000000000000000000000',
      build_number: 0,
      build_snapshot: false,
      build_flavor: 'traditional',
      build_date: '2026-01-01T00:00:00.000Z',
    },
    status: {
      overall: available('All services and plugins are available'),
      core: { elasticsearch: available('Elasticsearch is available'), savedObjects: available('SavedObjects service has completed migrations and is available') },
      plugins: {},
    },
    metrics: {
      last_updated: ctx.now().toISOString(),
      collection_interval_in_millis: 5000,
      elasticsearch_client: { totalActiveSockets: 0, totalIdleSockets: 0, totalQueuedRequests: 0 },
    },
  };
}

export const statusArea: EmulatorArea = {
  name: 'status',
  register(router) {
    router.get('/api/status', (_req, ctx) => ({ body: status(ctx) }));
  },
};
