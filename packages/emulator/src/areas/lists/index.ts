import type { EmulatorArea } from '../../area.js';
import { registerItemRoutes } from './item-routes.js';
import { registerListRoutes } from './list-routes.js';
import { AREA } from './state.js';

/**
 * Value lists (/api/lists): the per-space list data streams, lists, and their items, with the
 * security-app error shape for business errors (wire-facts 0.3, 3).
 */
export const listsArea: EmulatorArea = {
  name: AREA,
  register(router) {
    registerListRoutes(router);
    registerItemRoutes(router);
  },
};
