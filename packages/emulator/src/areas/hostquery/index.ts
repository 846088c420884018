import type { EmulatorArea } from '../../area.js';
import { HOSTQUERY_AREA } from './common.js';
import { registerLiveQueries } from './live-queries.js';
import { registerPacks } from './packs.js';
import { registerSavedQueries } from './saved-queries.js';

/** Host queries: saved queries, packs and live queries under /api/hostquery (platform errors). */
export const hostQueryArea: EmulatorArea = {
  name: HOSTQUERY_AREA,
  register(router) {
    registerSavedQueries(router);
    registerPacks(router);
    registerLiveQueries(router);
  },
};
