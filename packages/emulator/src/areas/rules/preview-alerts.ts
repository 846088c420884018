import { createHash } from 'node:crypto';
import type { EmulatorContext } from '../../context.js';
import type { EmuResponse } from '../../router.js';

/**
 * Where preview alerts go, and how they are read back.
 *
 * The real server writes them to the search backend's `.preview.alerts-security.alerts-<space>`
 * alias (backing index `.internal.preview.alerts-security.alerts-<space>-000001`), each with
 * `kibana.alert.rule.uuid` set to the preview id; its public API has no route that reads them (the
 * alerts search route, `POST /api/detection_engine/signals/search`, reads only
 * `.alerts-security.alerts-<space>`; the UI reads the preview index through internal search
 * routes). The emulator has no search backend, so `GET /__emulator/preview-alerts?previewId=ID
 * [&space=S]` answers what a search of that alias for `kibana.alert.rule.uuid: ID` would: the hits
 * of a search response, `{hits: {total: {value, relation}, hits: [{_index, _id, _source}]}}`.
 */

export interface PreviewAlert {
  _index: string;
  _id: string;
  _source: Record<string, unknown>;
}

interface PreviewState {
  /** Alerts by preview id, in the order the runs raised them. */
  byPreviewId: Record<string, PreviewAlert[]>;
}

export const previewIndexName = (space: string) => `.internal.preview.alerts-security.alerts-${space}-000001`;

function previewState(ctx: EmulatorContext, space: string): PreviewState {
  return ctx.store.area<PreviewState>(space, 'rulePreview', () => ({ byPreviewId: {} }));
}

export function savePreviewAlerts(ctx: EmulatorContext, space: string, previewId: string, alerts: PreviewAlert[]): void {
  previewState(ctx, space).byPreviewId[previewId] = alerts;
  ctx.store.touch();
}

/** A stable alert id for what raised it, as the server derives ids from the source events and the rule. */
export function alertId(previewId: string, key: string): string {
  return createHash('sha256').update(`${previewId}\u0000${key}`).digest('hex');
}

export function previewAlertsControl(url: URL, ctx: EmulatorContext): EmuResponse {
  const previewId = url.searchParams.get('previewId');
  const space = url.searchParams.get('space') ?? 'default';
  if (!previewId) return { status: 400, body: { error: 'previewId is required' } };
  if (!ctx.store.hasSpace(space)) return { status: 404, body: { error: `space "${space}" not found` } };
  const stored = previewState(ctx, space).byPreviewId;
  const alerts = Object.hasOwn(stored, previewId) ? stored[previewId]! : [];
  return { body: { hits: { total: { value: alerts.length, relation: 'eq' }, hits: alerts } } };
}
