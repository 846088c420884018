import { isPlainObject } from '../normalize.js';

/**
 * MITRE ATT&CK coverage of detection rules, read from each rule's own `threat` entries (no bundled
 * ATT&CK dataset: the names are the ones the rules carry), and the data a rule needs
 * (`related_integrations`). Pure functions over rule bodies in spec shape (a manifest's spec or a
 * live rule: both carry `enabled`, `threat` and `related_integrations` under the same names).
 */

export const ATTACK_FRAMEWORK = 'MITRE ATT&CK';

/** One tactic, technique or subtechnique a rule covers. */
export interface Covered {
  /** `tactic`, `technique` (a subtechnique is a technique whose id has a dot, with its `parent`). */
  level: 'tactic' | 'technique';
  id: string;
  name: string;
  /** Technique: the tactics it is listed under. */
  tactics?: string[];
  /** Subtechnique: its technique's id. */
  parent?: string;
}

/** What one rule covers, keyed by id (a technique listed under two tactics is one entry naming both). */
export function ruleCoverage(rule: Record<string, any>): Map<string, Covered> {
  const out = new Map<string, Covered>();
  const threats = Array.isArray(rule.threat) ? rule.threat : [];
  const add = (entry: Covered, tactic?: string) => {
    const key = `${entry.level}:${entry.id}`;
    const had = out.get(key);
    const target = had ?? entry;
    if (!had) out.set(key, entry);
    if (tactic && target.level === 'technique') {
      target.tactics ??= [];
      if (!target.tactics.includes(tactic)) target.tactics.push(tactic);
    }
  };
  for (const t of threats) {
    if (!isPlainObject(t) || t.framework !== ATTACK_FRAMEWORK || !isPlainObject(t.tactic) || typeof t.tactic.id !== 'string') continue;
    const tactic = t.tactic.id;
    add({ level: 'tactic', id: tactic, name: nameOf(t.tactic) });
    for (const tech of Array.isArray(t.technique) ? t.technique : []) {
      if (!isPlainObject(tech) || typeof tech.id !== 'string') continue;
      add({ level: 'technique', id: tech.id, name: nameOf(tech) }, tactic);
      for (const sub of Array.isArray(tech.subtechnique) ? tech.subtechnique : []) {
        if (!isPlainObject(sub) || typeof sub.id !== 'string') continue;
        add({ level: 'technique', id: sub.id, name: nameOf(sub), parent: tech.id }, tactic);
      }
    }
  }
  return out;
}

function nameOf(entry: Record<string, any>): string {
  return typeof entry.name === 'string' ? entry.name : entry.id;
}

/** A rule counts towards coverage only when it runs; the server's default is disabled. */
export const isEnabled = (rule: Record<string, any>) => rule.enabled === true;

export interface CoverageDiff {
  added: Covered[];
  removed: Covered[];
}

/** What the enabled rules of `before` and `after` cover between them: ids covered only after (added) or only before (removed). */
export function coverageDiff(before: Iterable<Record<string, any>>, after: Iterable<Record<string, any>>): CoverageDiff {
  const b = enabledCoverage(before);
  const a = enabledCoverage(after);
  const sort = (list: Covered[]) => list.sort((x, y) => (x.level === y.level ? x.id.localeCompare(y.id) : x.level === 'tactic' ? -1 : 1));
  return {
    added: sort([...a].filter(([k]) => !b.has(k)).map(([, v]) => v)),
    removed: sort([...b].filter(([k]) => !a.has(k)).map(([, v]) => v)),
  };
}

function enabledCoverage(rules: Iterable<Record<string, any>>): Map<string, Covered> {
  const out = new Map<string, Covered>();
  for (const rule of rules) {
    if (!isEnabled(rule)) continue;
    for (const [key, c] of ruleCoverage(rule)) {
      const had = out.get(key);
      if (!had) out.set(key, { ...c, ...(c.tactics ? { tactics: [...c.tactics] } : {}) });
      else for (const t of c.tactics ?? []) if (!had.tactics?.includes(t)) (had.tactics ??= []).push(t);
    }
  }
  for (const c of out.values()) c.tactics?.sort();
  return out;
}

/** The whole matrix: tactics, their techniques and subtechniques, each with how many enabled rules cover it. */
export interface Matrix {
  /** Enabled rules counted, and rules left out because they are disabled. */
  enabled: number;
  disabled: number;
  /** Enabled rules with no ATT&CK entry. */
  unmapped: number;
  tactics: MatrixTactic[];
}

export interface MatrixTactic {
  id: string;
  name: string;
  rules: number;
  techniques: MatrixTechnique[];
}

export interface MatrixTechnique {
  id: string;
  name: string;
  rules: number;
  subtechniques: Array<{ id: string; name: string; rules: number }>;
}

export function coverageMatrix(rules: Iterable<Record<string, any>>): Matrix {
  const matrix: Matrix = { enabled: 0, disabled: 0, unmapped: 0, tactics: [] };
  const tactics = new Map<string, MatrixTactic & { byId: Map<string, MatrixTechnique & { subById: Map<string, { id: string; name: string; rules: number }> }> }>();
  for (const rule of rules) {
    if (!isEnabled(rule)) {
      matrix.disabled++;
      continue;
    }
    matrix.enabled++;
    const covered = ruleCoverage(rule);
    if (covered.size === 0) matrix.unmapped++;
    // Each count is of rules: a rule listing a technique twice counts once per tactic it names.
    for (const c of covered.values()) {
      if (c.level === 'tactic') {
        const t = tactics.get(c.id) ?? { id: c.id, name: c.name, rules: 0, techniques: [], byId: new Map() };
        tactics.set(c.id, t);
        t.rules++;
      }
    }
    for (const c of covered.values()) {
      if (c.level !== 'technique') continue;
      for (const tacticId of c.tactics ?? []) {
        const t = tactics.get(tacticId)!;
        const techId = c.parent ?? c.id;
        const tech = t.byId.get(techId) ?? { id: techId, name: c.parent ? covered.get(`technique:${c.parent}`)?.name ?? c.parent : c.name, rules: 0, subtechniques: [], subById: new Map() };
        t.byId.set(techId, tech);
        if (!c.parent) tech.rules++;
        else {
          const sub = tech.subById.get(c.id) ?? { id: c.id, name: c.name, rules: 0 };
          tech.subById.set(c.id, sub);
          sub.rules++;
        }
      }
    }
  }
  const byId = (x: { id: string }, y: { id: string }) => x.id.localeCompare(y.id);
  matrix.tactics = [...tactics.values()].sort(byId).map((t) => ({
    id: t.id,
    name: t.name,
    rules: t.rules,
    techniques: [...t.byId.values()].sort(byId).map((tech) => ({ id: tech.id, name: tech.name, rules: tech.rules, subtechniques: [...tech.subById.values()].sort(byId) })),
  }));
  return matrix;
}

/** A rule's `related_integrations` entries that name a package, with the version range each asks for. */
export function relatedIntegrations(rule: Record<string, any>): Array<{ package: string; version?: string }> {
  const list = Array.isArray(rule.related_integrations) ? rule.related_integrations : [];
  return list
    .filter((r: unknown) => isPlainObject(r) && typeof r.package === 'string' && r.package !== '')
    .map((r: Record<string, any>) => ({ package: r.package as string, ...(typeof r.version === 'string' ? { version: r.version } : {}) }));
}

/**
 * Whether an installed version is in a related integration's range. Only the forms the rules use
 * are read (`^1.2.3`, `~1.2.3`, `1.2.3`, alternatives joined by `||`, as npm's semver reads them; the
 * server's rule pages judge them with it, K-DE related_integrations integration_details); a range
 * or a version it cannot read, or none, counts as met, so a rule is never called unable to fire
 * for a form svcform does not know. A prerelease compares by its release numbers.
 */
export function versionInRange(installed: string | undefined, range: string | undefined): boolean {
  if (installed === undefined || range === undefined) return true;
  const have = parseVersion(installed);
  if (!have) return true;
  return range.split('||').some((part) => {
    const m = /^\s*([\^~]?)(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
    if (!m) return true;
    const want = [Number(m[2]), Number(m[3]), Number(m[4])];
    if (!m[1]) return have.every((n, i) => n === want[i]);
    if (compare(have, want) < 0) return false;
    // Tilde: the same major and minor.
    if (m[1] === '~') return have[0] === want[0] && have[1] === want[1];
    // Caret: the leftmost non-zero number must stay the same (^0.2.3 is <0.3.0, ^0.0.3 exactly 0.0.3).
    const fixed = want[0] > 0 ? 1 : want[1] > 0 ? 2 : 3;
    return have.slice(0, fixed).every((n, i) => n === want[i]);
  });
}

function parseVersion(v: string): number[] | undefined {
  const m = /^\s*v?(\d+)\.(\d+)\.(\d+)/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** The packages a rule names in `related_integrations` (any one of them installed and collecting lets it fire). */
export function relatedPackages(rule: Record<string, any>): string[] {
  const list = Array.isArray(rule.related_integrations) ? rule.related_integrations : [];
  return [...new Set(list.filter((r: unknown) => isPlainObject(r) && typeof r.package === 'string' && r.package !== '').map((r: Record<string, any>) => r.package as string))];
}
