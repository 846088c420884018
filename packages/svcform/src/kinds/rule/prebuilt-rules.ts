import type { Resource } from '../../manifest/types.js';
import { AREAS } from '../../client/areas.js';
import { clone, deepEqual, isPlainObject } from '../normalize.js';
import type { AdapterContext, CheckIssue, KindAdapter, LiveObject, Reference } from '../types.js';
import { timelineReference } from './timeline.js';
import {
  canonicalSelector, customizedGroups, fieldsOfGroup, groupOfField, INTERNAL_HEADERS, isEmptySelector, PREBUILT_PATH, readPrebuiltView,
  resolveSelector, RULES_PATH, STAMP, stampOf, type PrebuiltView, type Selector, type SetBody, type Stamp,
} from './prebuilt-rules-read.js';

/**
 * Prebuilt rules, installed, enabled and customised without forking them. A PrebuiltRules object
 * is a named set of the vendor's rules: `install` selects them (all, rule_ids, tags), `enable`
 * says which of them run, `customize` sets named fields per rule. The set's name and selectors are
 * kept on each member rule under `meta.svcform_prebuilt` (meta is not rule content, so it is no
 * customisation), which is how a stateless tool finds its sets again. Writes are PATCHes, which
 * the server allows on prebuilt rules and answers by recomputing `rule_source.is_customized`.
 * svcform never deletes a prebuilt rule: deleting a set only removes its mark from the rules.
 */

/** Arrays the server compares without order when it decides what is customised. */
const SET_LIKE = new Set(['index', 'tags', 'references', 'false_positives']);

function canonicalValue(field: string, value: unknown): unknown {
  if (SET_LIKE.has(field) && Array.isArray(value)) return [...value].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return clone(value);
}

function canonicalCustomize(customize: unknown): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  if (!isPlainObject(customize)) return out;
  for (const ruleId of Object.keys(customize).sort()) {
    const fields = customize[ruleId];
    if (!isPlainObject(fields) || Object.keys(fields).length === 0) continue;
    out[ruleId] = Object.fromEntries(Object.keys(fields).sort().map((f) => [f, canonicalValue(f, fields[f])]));
  }
  return out;
}

/** What a member rule holds for the fields a set customises, and for fields customised behind its back. */
function liveCustomization(rule: Record<string, any>, declared: string[]): Record<string, unknown> {
  const fields = new Set(declared);
  const covered = new Set(declared.map((f) => groupOfField(f, rule.type)));
  for (const group of customizedGroups(rule)) {
    if (covered.has(group)) continue;
    for (const f of fieldsOfGroup(group)) if (rule[f] !== undefined) fields.add(f);
  }
  return Object.fromEntries([...fields].sort().map((f) => [f, canonicalValue(f, rule[f])]));
}

function liveSpec(body: SetBody): Record<string, any> {
  const stamp = stampOf(body.members[0])!;
  const install = canonicalSelector(stamp.install);
  const enable = canonicalSelector(stamp.enable);
  const installed = new Map(body.installed.map((r) => [r.rule_id, r]));
  const selected = resolveSelector(install, body);
  // The set's rules are the installed ones its selector names, marked or not: an upgrade may drop
  // the mark (it rewrites meta) while the rule and its customisations stay.
  const rules = selected.map((id) => installed.get(id)).filter((r): r is Record<string, any> => r !== undefined);
  const notInstalled = selected.filter((id) => !installed.has(id));
  const unmarked = rules.filter((r) => stampOf(r)?.set !== body.set).map((r) => r.rule_id);
  const enabledIds = new Set(resolveSelector(enable, body));
  const outOfStep = Object.fromEntries(rules.filter((r) => !!r.enabled !== enabledIds.has(r.rule_id)).map((r) => [r.rule_id, !!r.enabled]));
  const customize: Record<string, Record<string, unknown>> = {};
  for (const rule of rules) {
    const own = stampOf(rule);
    const values = liveCustomization(rule, own?.set === body.set ? own.customized ?? [] : []);
    if (Object.keys(values).length) customize[rule.rule_id] = values;
  }
  // Rules not installed, not marked, or in the wrong enabled state show as notes on the selectors,
  // so that the plan names them and the update puts them right.
  const notes = (s: Selector, extra: Record<string, unknown>) => {
    const present = Object.fromEntries(Object.entries(extra).filter(([, v]) => (Array.isArray(v) ? v.length : Object.keys(v as object).length)));
    if (Object.keys(present).length === 0) return s;
    return s === 'all' ? { all: true, ...present } : { ...s, ...present };
  };
  return {
    install: notes(install, { not_installed: notInstalled, not_marked: unmarked }),
    enable: notes(enable, { enabled_now: outOfStep }),
    customize,
  };
}

function desiredSpec(spec: Record<string, any>): Record<string, any> {
  return { install: canonicalSelector(spec.install), enable: canonicalSelector(spec.enable ?? {}), customize: canonicalCustomize(spec.customize) };
}

// ---- writes ----

async function patchRule(ctx: AdapterContext, space: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await ctx.api.request({ method: 'PATCH', path: RULES_PATH, space, body });
  return res.body;
}

function metaWith(rule: Record<string, any>, stamp: Stamp | undefined): Record<string, unknown> {
  const { [STAMP]: _old, ...rest } = isPlainObject(rule.meta) ? rule.meta : {};
  return stamp ? { ...rest, [STAMP]: stamp } : rest;
}

async function installMissing(ctx: AdapterContext, space: string, wanted: string[], view: PrebuiltView): Promise<Record<string, any>[]> {
  const installed = new Set(view.installed.map((r) => r.rule_id));
  const missing = view.available.filter((r) => wanted.includes(r.rule_id) && !installed.has(r.rule_id));
  if (missing.length === 0) return [];
  ctx.log(`installing ${missing.length} prebuilt rule(s) in space ${space}`);
  const res = await ctx.api.request({
    method: 'POST',
    path: `${PREBUILT_PATH}/installation/_perform`,
    space,
    headers: INTERNAL_HEADERS,
    // Installing a rule twice is refused as ALREADY_INSTALLED, so a repeat after a lost answer is safe.
    idempotent: true,
    body: { mode: 'SPECIFIC_RULES', rules: missing.map((r) => ({ rule_id: r.rule_id, version: r.version })) },
  });
  if (res.body?.errors?.length) throw new Error(`installing prebuilt rules failed: ${res.body.errors.map((e: any) => e.message).join('; ')}`);
  return res.body?.results?.created ?? [];
}

/** Brings the server to the set's manifest: installs, marks, enables and customises its rules. */
async function writeSet(ctx: AdapterContext, res: Resource): Promise<void> {
  const space = res.space;
  const view = await readPrebuiltView(ctx, space);
  const spec = desiredSpec(res.spec);
  const known = new Set([...view.installed, ...view.available].map((r) => r.rule_id));
  const members = resolveSelector(spec.install, view);
  const unknown = members.filter((id) => !known.has(id));
  if (unknown.length) throw new Error(`install names rule_ids the server's prebuilt package does not ship: ${unknown.join(', ')}`);
  const enabled = new Set(resolveSelector(spec.enable, view));
  const outside = [...enabled, ...Object.keys(spec.customize)].filter((id) => !members.includes(id));
  if (outside.length) throw new Error(`enable and customize may only name rules the set installs; not installed by it: ${[...new Set(outside)].join(', ')}`);
  for (const rule of view.installed) {
    const other = stampOf(rule)?.set;
    if (members.includes(rule.rule_id) && other !== undefined && other !== res.name) throw new Error(`rule ${rule.rule_id} already belongs to PrebuiltRules/${other}; a rule belongs to one set`);
  }

  const created = await installMissing(ctx, space, members, view);
  const byId = new Map([...view.installed, ...created].map((r) => [r.rule_id, r]));
  if (members.some((id) => !byId.has(id))) {
    // A repeat of an install whose answer was lost is answered "skipped: ALREADY_INSTALLED" with
    // nothing created: the rules are there, so they are read back rather than reported missing.
    for (const rule of (await readPrebuiltView(ctx, space)).installed) if (!byId.has(rule.rule_id)) byId.set(rule.rule_id, rule);
  }
  for (const ruleId of members) {
    let rule = byId.get(ruleId);
    if (!rule) throw new Error(`prebuilt rule ${ruleId} is not installed after the install call`);
    const declared = spec.customize[ruleId] ?? {};
    const covered = new Set(Object.keys(declared).map((f) => groupOfField(f, rule!.type)));
    if (customizedGroups(rule).some((g) => !covered.has(g))) {
      // Customised outside Git in fields the set does not declare: back to the vendor's version first.
      const reverted = await ctx.api.request({ method: 'POST', path: `${PREBUILT_PATH}/revert`, space, headers: INTERNAL_HEADERS, body: { id: rule.id, revision: rule.revision, version: rule.version } });
      const errors = reverted.body?.attributes?.errors ?? [];
      if (errors.length) throw new Error(`reverting prebuilt rule ${ruleId} failed: ${errors.map((e: any) => e.message).join('; ')}`);
      rule = reverted.body?.attributes?.results?.updated?.[0] ?? rule;
    }
    const stamp: Stamp = { set: res.name, install: spec.install, enable: spec.enable, customized: Object.keys(declared) };
    const patch: Record<string, unknown> = { rule_id: ruleId, enabled: enabled.has(ruleId), meta: metaWith(rule!, stamp), ...clone(declared) };
    const current = { ...Object.fromEntries(Object.keys(patch).map((k) => [k, canonicalValue(k, rule![k])])), enabled: !!rule!.enabled };
    const wanted = Object.fromEntries(Object.entries(patch).map(([k, v]) => [k, canonicalValue(k, v)]));
    if (!deepEqual(current, wanted)) await patchRule(ctx, space, patch);
  }
  // Rules the set marked before but no longer selects leave it (they stay installed as they are).
  for (const rule of view.installed) {
    if (stampOf(rule)?.set === res.name && !members.includes(rule.rule_id)) await patchRule(ctx, space, { rule_id: rule.rule_id, meta: metaWith(rule, undefined) });
  }
}

// ---- export ----

function selectorSpec(s: Selector): unknown {
  if (s === 'all') return 'all';
  const out: Record<string, string[]> = {};
  if (s.rule_ids.length) out.rule_ids = s.rule_ids;
  if (s.tags.length) out.tags = s.tags;
  return out;
}

export const prebuiltRulesAdapter: KindAdapter = {
  kind: 'PrebuiltRules',
  schema: 'PrebuiltRules.schema.json',
  // Installs run one at a time on the server (429 otherwise); the client keeps to that.
  area: AREAS.prebuiltRules,
  setFields: ['/install/rule_ids', '/install/tags', '/enable/rule_ids', '/enable/tags'],

  referenceKinds: ['TimelineTemplate'],

  references(spec): Reference[] {
    // A customised timeline_id names a template, which is then written before the set. Accepted
    // when missing, as for any rule (wire-facts §16 #8).
    const customize = isPlainObject(spec.customize) ? spec.customize : {};
    return Object.entries(customize)
      .filter(([, fields]) => isPlainObject(fields) && typeof fields.timeline_id === 'string')
      .map(([ruleId, fields]): Reference => ({ ...timelineReference((fields as Record<string, string>).timeline_id), path: ['spec', 'customize', ruleId, 'timeline_id'] }));
  },

  check(res: Resource): CheckIssue[] {
    const issues: CheckIssue[] = [];
    const install = canonicalSelector(res.spec.install);
    if (install !== 'all' && isEmptySelector(install)) issues.push({ path: ['spec', 'install'], message: 'install selects no rule: give rule_ids, tags or `all`' });
    if (install !== 'all' && install.tags.length === 0) {
      const named = new Set(install.rule_ids);
      const enableIds: unknown[] = Array.isArray(res.spec.enable?.rule_ids) ? res.spec.enable.rule_ids : [];
      enableIds.forEach((id, i) => {
        if (typeof id === 'string' && !named.has(id)) issues.push({ path: ['spec', 'enable', 'rule_ids', i], message: `enable names ${id}, which install does not select` });
      });
      for (const id of Object.keys(res.spec.customize ?? {})) if (!named.has(id)) issues.push({ path: ['spec', 'customize', id], message: `customize names ${id}, which install does not select` });
    }
    return issues;
  },

  async list(ctx: AdapterContext, space: string): Promise<LiveObject[]> {
    const view = await readPrebuiltView(ctx, space);
    const sets = new Map<string, Record<string, any>[]>();
    for (const rule of view.installed) {
      const set = stampOf(rule)?.set;
      if (set !== undefined) sets.set(set, [...(sets.get(set) ?? []), rule]);
    }
    return [...sets].map(([set, members]) => {
      // The most recently written member carries the set's current selectors.
      members.sort((a, b) => (String(b.updated_at) < String(a.updated_at) ? -1 : String(b.updated_at) > String(a.updated_at) ? 1 : 0));
      const body: SetBody = { ...view, set, members };
      return { kind: 'PrebuiltRules', space, name: set, body };
    });
  },

  normalizeDesired(res: Resource) {
    return desiredSpec(res.spec);
  },

  normalizeLive(live: LiveObject) {
    return liveSpec(live.body as SetBody);
  },

  async create(ctx, res) {
    await writeSet(ctx, res);
  },

  async update(ctx, res) {
    await writeSet(ctx, res);
  },

  async delete(ctx, live) {
    for (const rule of (live.body as SetBody).members) await patchRule(ctx, live.space, { rule_id: rule.rule_id, meta: metaWith(rule, undefined) });
  },

  toSpec(live: LiveObject) {
    const spec = liveSpec(live.body as SetBody);
    const stamp = stampOf((live.body as SetBody).members[0])!;
    const out: Record<string, any> = { install: selectorSpec(canonicalSelector(stamp.install)) };
    const enable = canonicalSelector(stamp.enable);
    if (!isEmptySelector(enable)) out.enable = selectorSpec(enable);
    if (Object.keys(spec.customize).length) out.customize = spec.customize;
    return { spec: out };
  },

  notices(_res: Resource, live: LiveObject): string[] {
    const body = live.body as SetBody;
    const members = new Map(body.members.map((r) => [r.rule_id, r]));
    return body.upgrades
      .filter((u) => members.has(u.rule_id))
      .map((u) => {
        const rule = members.get(u.rule_id)!;
        const custom = customizedGroups(rule);
        const state = rule.rule_source?.is_customized ? `rule_source.is_customized: true (${custom.join(', ') || 'no base version'})` : 'rule_source.is_customized: false';
        return `upgrade available for ${JSON.stringify(rule.name)} (${u.rule_id}): version ${u.current_version} -> ${u.version}; ${state}. Not drift: svcform does not upgrade; upgrade in the app (MERGED keeps these customisations), then plan re-applies any the upgrade lost.`;
      });
  },
};
