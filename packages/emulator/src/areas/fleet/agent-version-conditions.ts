import type { AgentPolicyRecord, PackagePolicyRecord } from './state.js';

/**
 * An agent policy's agent version fields, which the server works out itself (K-FLEET
 * services/agent_policy.ts `computeMinAgentVersionData`, run by `update()` and by `bumpRevision()`,
 * which every package policy create, update, upgrade and delete calls): whatever a body sent,
 * - `package_agent_version_conditions`: one `{name, title, version_condition}` per attached
 *   package policy whose package names agent versions (`conditions.agent.version`), or null;
 * - `min_agent_version`: the highest of their lowest allowed versions, or null;
 * - `has_agent_version_conditions`: whether there is any such condition.
 * A condition that is no range is listed but gives no minimum (the server skips what semver
 * cannot read). The server also sets the flag for input templates that name the agent version
 * (`inputs_for_versions`); the emulator compiles no templates, so only package conditions count.
 */
export function applyAgentVersionConditions(policy: AgentPolicyRecord, attached: PackagePolicyRecord[]): void {
  const conditions = attached
    .filter((pp) => typeof pp.package_agent_version_condition === 'string' && pp.package_agent_version_condition !== '')
    .map((pp) => ({ name: pp.package.name, title: pp.package.title, version_condition: pp.package_agent_version_condition as string }));
  let highest: Version | undefined;
  for (const { version_condition } of conditions) {
    const min = lowestAllowed(version_condition);
    if (min && (!highest || compare(min, highest) > 0)) highest = min;
  }
  policy.has_agent_version_conditions = conditions.length > 0;
  policy.min_agent_version = highest ? format(highest) : null;
  policy.package_agent_version_conditions = conditions.length ? conditions : null;
}

/** A version as semver reads it: three numbers and prerelease identifiers (build metadata dropped). */
interface Version {
  nums: [number, number, number];
  pre: Array<string | number>;
}

type Op = '>=' | '>' | '<' | '<=' | '=';
interface Comparator {
  op: Op;
  v: Version;
}

const PARTIAL = /^v?(\d+|[xX*])(?:\.(\d+|[xX*])(?:\.(\d+|[xX*])(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?)?)?$/;

function format(v: Version): string {
  return v.nums.join('.') + (v.pre.length ? `-${v.pre.join('.')}` : '');
}

function comparePre(a: Array<string | number>, b: Array<string | number>): number {
  // A release sorts after its prereleases; identifiers compare numbers below words.
  if (!a.length || !b.length) return a.length ? -1 : b.length ? 1 : 0;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    if (x === y) continue;
    if (typeof x !== typeof y) return typeof x === 'number' ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a.nums[i] !== b.nums[i]) return a.nums[i] < b.nums[i] ? -1 : 1;
  return comparePre(a.pre, b.pre);
}

const ver = (M: number, m: number, p: number, pre: Array<string | number> = []): Version => ({ nums: [M, m, p], pre });
/** `-0`: the lowest prerelease, so an upper bound `<2.0.0-0` also shuts out 2.0.0's prereleases. */
const below = (M: number, m: number, p: number): Comparator => ({ op: '<', v: ver(M, m, p, [0]) });
const NOTHING: Comparator[] = [below(0, 0, 0)];
const isNothing = (c: Comparator) => c.op === '<' && compare(c.v, NOTHING[0].v) === 0;

/** One comparator of a range (`^9.3.0`, `>=8.15`, `1.x`) as the plain comparators semver turns it into. */
function desugar(token: string): Comparator[] {
  const m = /^(\^|~>?|>=|<=|>|<|=)?(.*)$/.exec(token)!;
  const op = m[1] ?? '';
  const parts = PARTIAL.exec(m[2]);
  if (!parts) throw new Error(`not a version: ${token}`);
  const num = (s: string | undefined) => (s === undefined || /^[xX*]$/.test(s) ? undefined : Number(s));
  // Past a wildcard every part is one (`1.x.2` is `1.x`), as semver reads it.
  const M = num(parts[1]);
  const mi = M === undefined ? undefined : num(parts[2]);
  const p = mi === undefined ? undefined : num(parts[3]);
  const pre = parts[4] ? parts[4].split('.').map((id) => (/^\d+$/.test(id) ? Number(id) : id)) : [];
  const full = M !== undefined && mi !== undefined && p !== undefined;
  if (M === undefined) return op === '<' || op === '>' ? NOTHING : [];
  const low = (): Comparator => ({ op: '>=', v: ver(M, mi ?? 0, p ?? 0, full ? pre : []) });
  // The first version past a partial one: `1` -> 2.0.0, `1.2` -> 1.3.0.
  const next = (): [number, number, number] => (mi === undefined ? [M + 1, 0, 0] : [M, mi + 1, 0]);
  switch (op) {
    case '^': {
      // The leftmost non-zero part stays: ^1.2.3 is below 2.0.0, ^0.2.3 below 0.3.0, ^0.0.3 below 0.0.4.
      if (mi === undefined || M > 0) return [low(), below(M + 1, 0, 0)];
      if (p === undefined || mi > 0) return [low(), below(0, mi + 1, 0)];
      return [low(), below(0, 0, p + 1)];
    }
    case '~':
    case '~>':
      return [low(), below(...next())];
    case '>=':
      return [low()];
    case '>':
      return full ? [{ op: '>', v: ver(M, mi, p, pre) }] : [{ op: '>=', v: ver(...next()) }];
    case '<':
      return full ? [{ op: '<', v: ver(M, mi, p, pre) }] : [below(M, mi ?? 0, 0)];
    case '<=':
      return full ? [{ op: '<=', v: ver(M, mi, p, pre) }] : [below(...next())];
    default:
      return full ? [{ op: '=', v: ver(M, mi, p, pre) }] : [low(), below(...next())];
  }
}

/** A range's comparator sets (alternatives joined by `||`, each a list that must all hold). */
function parseRange(range: string): Comparator[][] {
  const sets = range.split('||').map((alt) => {
    const text = alt.trim().replace(/(\^|~>?|>=|<=|>|<|=)\s+/g, '$1');
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
    // `1.2.3 - 2.3.4`: from the first (its missing parts 0) up to the second (a partial one inclusive of all it covers).
    if (hyphen) return [...desugar(`>=${hyphen[1].replace(/^=+/, '')}`), ...desugar(`<=${hyphen[2].replace(/^=+/, '')}`)];
    // `>=0.0.0` bounds nothing (semver drops it, so it does not shut out 0.0.0's prereleases).
    const set = (text === '' ? [] : text.split(/\s+/).flatMap(desugar)).filter((c) => !(c.op === '>=' && compare(c.v, ver(0, 0, 0)) === 0));
    // A set with a comparator nothing passes is that alone; such sets drop out beside others.
    return set.some(isNothing) ? NOTHING : set;
  });
  const some = sets.filter((set) => set !== NOTHING);
  return some.length ? some : sets.slice(0, 1);
}

function holds(c: Comparator, v: Version): boolean {
  const d = compare(v, c.v);
  return c.op === '>=' ? d >= 0 : c.op === '>' ? d > 0 : c.op === '<' ? d < 0 : c.op === '<=' ? d <= 0 : d === 0;
}

/** semver's set test: a prerelease only matches a set naming a prerelease of the same x.y.z. */
function inSet(set: Comparator[], v: Version): boolean {
  if (!set.every((c) => holds(c, v))) return false;
  if (!v.pre.length) return true;
  return set.some((c) => c.v.pre.length > 0 && c.v.nums.every((n, i) => n === v.nums[i]));
}

/**
 * The lowest version a range allows, as npm semver's `minVersion` finds it (the server's
 * computeMinAgentVersionData calls it): 0.0.0 when the range allows it, else the lowest lower
 * bound of its alternatives, if the range holds it; undefined for a range that cannot be read or
 * allows nothing. `^9.3.0` -> 9.3.0, `>=8.15.0` -> 8.15.0, `^8.19.0 || ^9.1.0` -> 8.19.0.
 */
function lowestAllowed(range: string): Version | undefined {
  let sets: Comparator[][];
  try {
    sets = parseRange(range);
  } catch {
    return undefined;
  }
  const allows = (v: Version) => sets.some((set) => inSet(set, v));
  for (const v of [ver(0, 0, 0), ver(0, 0, 0, [0])]) if (allows(v)) return v;
  let lowest: Version | undefined;
  for (const set of sets) {
    let setMin: Version | undefined;
    for (const c of set) {
      let v: Version | undefined;
      if (c.op === '>') v = c.v.pre.length ? ver(...c.v.nums, [...c.v.pre, 0]) : ver(c.v.nums[0], c.v.nums[1], c.v.nums[2] + 1);
      else if (c.op === '>=' || c.op === '=') v = c.v;
      if (v && (!setMin || compare(v, setMin) > 0)) setMin = v;
    }
    if (setMin && (!lowest || compare(lowest, setMin) > 0)) lowest = setMin;
  }
  return lowest && allows(lowest) ? lowest : undefined;
}

/** The lowest version a range allows, as text (see lowestAllowed). */
export function minVersionOf(range: string): string | undefined {
  const v = lowestAllowed(range);
  return v ? format(v) : undefined;
}
