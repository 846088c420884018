import type { EmulatorContext } from '../../context.js';
import type { EmuRequest } from '../../router.js';
import { connectorsState } from './state.js';

/** The OAuth authorization-code callback and its script (added 9.4.0). */

/** Tells the window that opened the authorization page how it went, then closes it. */
export const OAUTH_SCRIPT = `(function () {
  var el = document.getElementById('oauth-result');
  var result = el ? JSON.parse(el.textContent) : { status: 'error' };
  if (window.opener) window.opener.postMessage({ type: 'connector_oauth_callback', result: result }, window.location.origin);
  window.close();
})();
`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function oauthPage(result: Record<string, string>, message: string) {
  const json = JSON.stringify(result).replace(/</g, '\\u003c');
  return {
    text: `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Connector authorization</title></head><body><p>${escapeHtml(message)}</p><script type="application/json" id="oauth-result">${json}</script><script src="/api/actions/connector/_oauth_callback_script"></script></body></html>`,
    contentType: 'text/html; charset=utf-8',
  };
}

export function oauthCallback(req: EmuRequest, ctx: EmulatorContext) {
  const error = req.query.get('error');
  if (error) {
    const description = req.query.get('error_description') ?? '';
    return oauthPage({ status: 'error', error }, `Authorization failed: ${error}${description ? `: ${description}` : ''}`);
  }
  const code = req.query.get('code');
  const stateParam = req.query.get('state');
  const state = connectorsState(ctx, req.space);
  const pending = stateParam && state.oauthStates && Object.prototype.hasOwnProperty.call(state.oauthStates, stateParam) ? state.oauthStates[stateParam] : undefined;
  if (!code || !pending) return oauthPage({ status: 'error', error: 'invalid_state' }, 'Authorization failed: the authorization state is missing, unknown or expired.');
  delete state.oauthStates![stateParam!];
  (state.oauthCallbacks ??= []).push({ connector_id: pending.connector_id, code, at: ctx.now().toISOString() });
  if (pending.return_url) return { status: 302, headers: { location: pending.return_url }, text: '' };
  return oauthPage({ status: 'success', connector_id: pending.connector_id }, 'Authorization complete. You can close this window.');
}
