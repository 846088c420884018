import type { AdapterContext } from '../types.js';
import { isPlainObject } from '../normalize.js';
import { listAllPages } from '../paging.js';

/**
 * What the server says about prebuilt rules in a space, read for PrebuiltRules: the installed
 * prebuilt rules (rules _find), the package's rules not installed yet (installation/_review) and
 * the installed ones with a newer version in the package (upgrade/_review). The two review routes
 * are versioned internal routes: they need `elastic-api-version: 1`; both only read, over POST.
 */

export const FIND_PATH = '/api/detection_engine/rules/_find';
export const RULES_PATH = '/api/detection_engine/rules';
export const PREBUILT_PATH = '/internal/detection_engine/prebuilt_rules';
export const INTERNAL_HEADERS = { 'elastic-api-version': '1' };
/** The review routes take any per_page (min 0, no max); the package has a few thousand rules. */
const REVIEW_PAGE = 10_000;

/** The key in a member rule's `meta` that names its set (meta is not rule content: no customisation). */
export const STAMP = 'svcform_prebuilt';

export type Selector = 'all' | { rule_ids: string[]; tags: string[] };

export interface Stamp {
  set: string;
  install: Selector;
  enable: Selector;
  /** The rule fields this set customises on this rule. */
  customized: string[];
}

export interface PrebuiltView {
  installed: Record<string, any>[];
  available: Record<string, any>[];
  upgrades: Array<{ rule_id: string; version: number; current_version: number }>;
}

export interface SetBody extends PrebuiltView {
  set: string;
  members: Record<string, any>[];
}

export function stampOf(rule: Record<string, any>): Stamp | undefined {
  const stamp = isPlainObject(rule.meta) ? rule.meta[STAMP] : undefined;
  return isPlainObject(stamp) && typeof stamp.set === 'string' ? (stamp as Stamp) : undefined;
}

export async function readPrebuiltView(ctx: AdapterContext, space: string): Promise<PrebuiltView> {
  const installed = await listAllPages<Record<string, any>>(ctx.api, {
    path: FIND_PATH,
    space,
    query: { filter: 'alert.attributes.params.immutable: true', sort_field: 'created_at', sort_order: 'asc' },
    sizeParam: 'per_page',
    pageSize: 1000,
    items: (body) => body.data,
    total: (body) => body.total,
  });
  const review = await ctx.api.request({ method: 'POST', path: `${PREBUILT_PATH}/installation/_review`, space, headers: INTERNAL_HEADERS, idempotent: true, body: { page: 1, per_page: REVIEW_PAGE } });
  const upgrade = await ctx.api.request({ method: 'POST', path: `${PREBUILT_PATH}/upgrade/_review`, space, headers: INTERNAL_HEADERS, idempotent: true, body: { page: 1, per_page: REVIEW_PAGE } });
  return {
    installed: installed.filter((r) => r.rule_source?.type === 'external' || r.immutable),
    available: review.body?.rules ?? [],
    upgrades: (upgrade.body?.rules ?? []).map((u: any) => ({ rule_id: u.rule_id, version: u.version, current_version: u.current_rule?.version })),
  };
}

/** The rule_ids a selector names, against the package and what is installed. */
export function resolveSelector(selector: Selector, view: PrebuiltView): string[] {
  const catalog = [...view.installed, ...view.available];
  if (selector === 'all') return [...new Set(catalog.map((r) => r.rule_id))].sort();
  const tags = new Set(selector.tags);
  const byTag = catalog.filter((r) => (r.tags ?? []).some((t: string) => tags.has(t))).map((r) => r.rule_id);
  return [...new Set([...selector.rule_ids, ...byTag])].sort();
}

export function canonicalSelector(value: unknown): Selector {
  if (value === 'all') return 'all';
  const v = isPlainObject(value) ? value : {};
  const uniq = (a: unknown) => [...new Set(Array.isArray(a) ? (a as string[]) : [])].sort();
  return { rule_ids: uniq(v.rule_ids), tags: uniq(v.tags) };
}

export const isEmptySelector = (s: Selector) => s !== 'all' && s.rule_ids.length === 0 && s.tags.length === 0;

/** Rule fields grouped the way the server reports customised fields (its diffable field names). */
const GROUP_FIELDS: Record<string, string[]> = {
  data_source: ['index', 'data_view_id'],
  rule_schedule: ['interval', 'from', 'to'],
  kql_query: ['query', 'language', 'filters', 'saved_id'],
  eql_query: ['query', 'language', 'filters'],
  esql_query: ['query', 'language'],
  timeline_template: ['timeline_id', 'timeline_title'],
  building_block: ['building_block_type'],
};

/** The rule fields behind a customised field name the server reports. */
export const fieldsOfGroup = (name: string): string[] => GROUP_FIELDS[name] ?? [name];

/** The server's name for the group a rule field belongs to. */
export function groupOfField(field: string, type: string): string {
  for (const [group, fields] of Object.entries(GROUP_FIELDS)) {
    if (!fields.includes(field)) continue;
    if (group.endsWith('_query')) return type === 'eql' ? 'eql_query' : type === 'esql' || type === 'qlang' ? 'esql_query' : 'kql_query';
    return group;
  }
  return field;
}

/** Groups the server reports as customised on a rule. */
export function customizedGroups(rule: Record<string, any>): string[] {
  return (rule.rule_source?.customized_fields ?? []).map((f: any) => f.field_name).filter((n: unknown): n is string => typeof n === 'string');
}
