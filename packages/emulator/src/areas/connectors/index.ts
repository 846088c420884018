import type { EmulatorArea } from '../../area.js';
import { execute } from './execute.js';
import { OAUTH_SCRIPT, oauthCallback } from './oauth.js';
import { create, getOne, list, remove, types, update } from './routes.js';

/** The connectors area (/api/actions): service-api.md Connectors, wire-facts §1. */
export const connectorsArea: EmulatorArea = {
  name: 'connectors',
  register(router) {
    router.post('/api/actions/connector', create);
    router.post('/api/actions/connector/:id', create);
    router.get('/api/actions/connector/:id', getOne);
    router.put('/api/actions/connector/:id', update);
    router.delete('/api/actions/connector/:id', remove);
    router.post('/api/actions/connector/:id/_execute', execute);
    router.get('/api/actions/connectors', list);
    router.get('/api/actions/connector_types', types, { access: 'none' });
    router.get('/api/actions/connector/_oauth_callback', oauthCallback);
    router.get('/api/actions/connector/_oauth_callback_script', () => ({ text: OAUTH_SCRIPT, contentType: 'application/javascript; charset=utf-8' }));
  },
};

// What other areas (rule actions, rule import and export) and tests use.
export { findConnector, importConnector, storedConnector, type ConnectorRef, type ConnectorsState, type StoredConnector } from './state.js';
