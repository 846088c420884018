import type { EmulatorArea } from '../../area.js';
import { registerItemRoutes } from './item-routes.js';
import { registerListRoutes } from './list-routes.js';

/**
 * Exception lists and their items (/api/exception_lists). The same store backs the rule
 * default-list route and the exception lines of rules `_import` (state.ts).
 */
export const exceptionListsArea: EmulatorArea = {
  name: 'exception_lists',
  register(router) {
    registerListRoutes(router);
    registerItemRoutes(router);
  },
};
