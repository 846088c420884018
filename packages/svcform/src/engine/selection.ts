import { globToRegExp } from '../common/glob.js';

/**
 * `--select Kind/name` patterns, the one matcher plan, apply, drift and export share. `*` matches
 * any run of characters. The kind part matches in any case (`rule/x` is `Rule/x`, as `--kind`
 * takes any spelling); the name part is an identity and matches exactly. A pattern without `/` is
 * not a selection: the caller reports it.
 */
export class Selection {
  private readonly patterns: Array<{ source: string; kind: RegExp; name: RegExp }>;

  constructor(patterns: readonly string[] = []) {
    this.patterns = patterns.map((source) => {
      const slash = source.indexOf('/');
      if (slash < 0) throw new SelectionError(`--select ${JSON.stringify(source)} must be kind/name (e.g. Rule/ssh-brute-force or Connector/soc-*)`);
      return { source, kind: globToRegExp(source.slice(0, slash), 'i'), name: globToRegExp(source.slice(slash + 1)) };
    });
  }

  /** Whether anything was asked for; an empty selection selects everything. */
  get narrowed(): boolean {
    return this.patterns.length > 0;
  }

  matches(kind: string, name: string): boolean {
    return !this.narrowed || this.patterns.some((p) => p.kind.test(kind) && p.name.test(name));
  }

  /** Whether some pattern can match objects of this kind (so the kind needs reading at all). */
  mayMatchKind(kind: string): boolean {
    return !this.narrowed || this.patterns.some((p) => p.kind.test(kind));
  }

  /**
   * The patterns (as written) that match none of `objects`: a typo must not pass as "nothing to
   * do". A pattern matching an object with nothing to change did match.
   */
  unmatched(objects: Iterable<{ kind: string; name: string }>): string[] {
    const left = new Set(this.patterns);
    for (const o of objects) {
      for (const p of left) if (p.kind.test(o.kind) && p.name.test(o.name)) left.delete(p);
      if (left.size === 0) break;
    }
    return [...left].map((p) => p.source);
  }
}

export class SelectionError extends Error {}
