/**
 * Regular languages as interned terms, matched by derivatives (Brzozowski): the derivative of a
 * term by a character is the term of what may follow that character. Matching a value takes one
 * derivative per character, each computed once per (term, character) and kept (a lazily built
 * DFA), so the time is linear in the value whatever the pattern: no backtracking, and complement
 * and intersection (Lucene's `~` and `&`) cost no more than the rest.
 *
 * Terms are interned by a factory (one per compiled pattern): equal terms are the same object,
 * unions and intersections are flattened, deduplicated and sorted, and concatenations associate to
 * the right, which keeps the number of distinct derivatives finite.
 */

/** A character set: sorted, disjoint [from, to] code point ranges, flattened. */
export type Ranges = readonly number[];

export type Term =
  | { readonly kind: 'nothing'; readonly id: number; readonly nullable: false }
  | { readonly kind: 'empty'; readonly id: number; readonly nullable: true }
  | { readonly kind: 'set'; readonly id: number; readonly nullable: false; readonly ranges: Ranges }
  | { readonly kind: 'cat'; readonly id: number; readonly nullable: boolean; readonly first: Term; readonly rest: Term }
  | { readonly kind: 'or' | 'and'; readonly id: number; readonly nullable: boolean; readonly items: readonly Term[] }
  | { readonly kind: 'not' | 'star'; readonly id: number; readonly nullable: boolean; readonly inner: Term }
  | { readonly kind: 'repeat'; readonly id: number; readonly nullable: boolean; readonly inner: Term; readonly min: number; readonly max: number }
  | { readonly kind: 'interval'; readonly id: number; readonly nullable: boolean; readonly interval: Interval; readonly value: number; readonly length: number };

/**
 * Lucene's `<min-max>`: decimal numbers in the range; with `digits` > 0 exactly that many digits
 * (zero-padded), else any number of leading zeros. A term holds the digits read so far.
 */
export interface Interval {
  min: number;
  max: number;
  digits: number;
}

export const MAX_CODE_POINT = 0x10ffff;

export function inRanges(ranges: Ranges, c: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) {
    if (c < ranges[i]!) return false;
    if (c <= ranges[i + 1]!) return true;
  }
  return false;
}

/** Sorted, merged ranges from any list of [from, to] pairs. */
export function normalizeRanges(pairs: Array<[number, number]>): number[] {
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [from, to] of sorted) {
    if (out.length > 0 && from <= out[out.length - 1]! + 1) out[out.length - 1] = Math.max(out[out.length - 1]!, to);
    else out.push(from, to);
  }
  return out;
}

export function complementRanges(ranges: Ranges): number[] {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    if (ranges[i]! > next) out.push(next, ranges[i]! - 1);
    next = ranges[i + 1]! + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

/** Whether the digits read so far (`value`, `length` of them) can still become, or already are, a number of the interval. */
function intervalState(interval: Interval, value: number, length: number): { alive: boolean; accepts: boolean } {
  const accepts = length > 0 && value >= interval.min && value <= interval.max && (interval.digits === 0 || length === interval.digits);
  if (interval.digits > 0) {
    // Some completion of the remaining digits falls within [min, max].
    const scale = 10 ** (interval.digits - length);
    return { alive: length < interval.digits && value * scale <= interval.max && value * scale + scale - 1 >= interval.min, accepts };
  }
  if (value === 0) return { alive: true, accepts };
  let alive = false;
  for (let scale = 10; !alive && value * scale <= interval.max; scale *= 10) alive = value * scale + scale - 1 >= interval.min;
  return { alive, accepts };
}

export class TermFactory {
  private readonly table = new Map<string, Term>();
  readonly nothing: Term = this.intern('0', () => ({ kind: 'nothing', id: 0, nullable: false }));
  readonly empty: Term = this.intern('e', (id) => ({ kind: 'empty', id, nullable: true }));
  /** Every string: `@`, `.*`, the complement of nothing. */
  readonly anything: Term = this.intern(`~${this.nothing.id}`, (id) => ({ kind: 'not', id, nullable: true, inner: this.nothing }));

  get size(): number {
    return this.table.size;
  }

  private intern(key: string, make: (id: number) => Term): Term {
    let term = this.table.get(key);
    if (!term) {
      term = make(this.table.size);
      this.table.set(key, term);
    }
    return term;
  }

  set(ranges: Ranges): Term {
    if (ranges.length === 0) return this.nothing;
    return this.intern(`s${ranges.join(',')}`, (id) => ({ kind: 'set', id, nullable: false, ranges }));
  }

  char(c: number): Term {
    return this.set([c, c]);
  }

  string(codePoints: number[]): Term {
    let term = this.empty;
    for (let i = codePoints.length - 1; i >= 0; i--) term = this.cat(this.char(codePoints[i]!), term);
    return term;
  }

  cat(first: Term, rest: Term): Term {
    if (first.kind === 'nothing' || rest.kind === 'nothing') return this.nothing;
    if (first.kind === 'empty') return rest;
    if (rest.kind === 'empty') return first;
    if (first.kind === 'cat') return this.cat(first.first, this.cat(first.rest, rest));
    return this.intern(`c${first.id},${rest.id}`, (id) => ({ kind: 'cat', id, nullable: first.nullable && rest.nullable, first, rest }));
  }

  or(terms: Term[]): Term {
    const items = this.flatten('or', terms).filter((t) => t.kind !== 'nothing');
    if (items.some((t) => t === this.anything)) return this.anything;
    if (items.length === 0) return this.nothing;
    if (items.length === 1) return items[0]!;
    return this.intern(`|${items.map((t) => t.id).join(',')}`, (id) => ({ kind: 'or', id, nullable: items.some((t) => t.nullable), items }));
  }

  and(terms: Term[]): Term {
    const items = this.flatten('and', terms).filter((t) => t !== this.anything);
    if (items.some((t) => t.kind === 'nothing')) return this.nothing;
    if (items.length === 0) return this.anything;
    if (items.length === 1) return items[0]!;
    return this.intern(`&${items.map((t) => t.id).join(',')}`, (id) => ({ kind: 'and', id, nullable: items.every((t) => t.nullable), items }));
  }

  not(inner: Term): Term {
    if (inner.kind === 'not') return inner.inner;
    return this.intern(`~${inner.id}`, (id) => ({ kind: 'not', id, nullable: !inner.nullable, inner }));
  }

  star(inner: Term): Term {
    if (inner.kind === 'nothing' || inner.kind === 'empty') return this.empty;
    if (inner.kind === 'star') return inner;
    if (inner.kind === 'set' && inner.ranges.length === 2 && inner.ranges[0] === 0 && inner.ranges[1] === MAX_CODE_POINT) return this.anything;
    return this.intern(`*${inner.id}`, (id) => ({ kind: 'star', id, nullable: true, inner }));
  }

  /** `inner{min,max}`; max -1 means no upper bound. */
  repeat(inner: Term, min: number, max: number): Term {
    if (max === -1) return min === 0 ? this.star(inner) : this.cat(inner, this.repeat(inner, min - 1, -1));
    if (max === 0 || inner.kind === 'empty') return this.empty;
    if (inner.kind === 'nothing') return min === 0 ? this.empty : this.nothing;
    if (min === 1 && max === 1) return inner;
    return this.intern(`r${inner.id},${min},${max}`, (id) => ({ kind: 'repeat', id, nullable: min === 0 || inner.nullable, inner, min, max }));
  }

  interval(interval: Interval, value = 0, length = 0): Term {
    const state = intervalState(interval, value, length);
    if (!state.alive && !state.accepts) return this.nothing;
    // Without a fixed width, leading zeros change nothing but whether a digit was read.
    const key = `n${interval.min},${interval.max},${interval.digits},${value},${interval.digits > 0 ? length : Math.min(length, 1)}`;
    if (!state.alive) return this.empty;
    return this.intern(key, (id) => ({ kind: 'interval', id, nullable: state.accepts, interval, value, length }));
  }

  /** What may follow the character `c` for a string of `term`'s language to be read. */
  derive(term: Term, c: number): Term {
    switch (term.kind) {
      case 'nothing':
      case 'empty':
        return this.nothing;
      case 'set':
        return inRanges(term.ranges, c) ? this.empty : this.nothing;
      case 'cat': {
        const head = this.cat(this.derive(term.first, c), term.rest);
        return term.first.nullable ? this.or([head, this.derive(term.rest, c)]) : head;
      }
      case 'or':
        return this.or(term.items.map((t) => this.derive(t, c)));
      case 'and':
        return this.and(term.items.map((t) => this.derive(t, c)));
      case 'not':
        return this.not(this.derive(term.inner, c));
      case 'star':
        return this.cat(this.derive(term.inner, c), term);
      case 'repeat':
        return this.cat(this.derive(term.inner, c), this.repeat(term.inner, Math.max(term.min - 1, 0), term.max - 1));
      case 'interval':
        if (c < 48 || c > 57) return this.nothing;
        return this.interval(term.interval, term.value * 10 + (c - 48), term.length + 1);
    }
  }

  private flatten(kind: 'or' | 'and', terms: Term[]): Term[] {
    const seen = new Map<number, Term>();
    const add = (t: Term) => {
      if (t.kind === kind) t.items.forEach(add);
      else seen.set(t.id, t);
    };
    terms.forEach(add);
    return [...seen.values()].sort((a, b) => a.id - b.id);
  }
}
