/**
 * `--select Kind/name` patterns, the one matcher plan, apply and export share. `*` matches any run
 * of characters. A pattern without `/` is not a selection: the caller reports it.
 */
export class Selection {
  private readonly patterns: Array<{ source: string; kind: RegExp; name: RegExp }>;

  constructor(patterns: readonly string[] = []) {
    this.patterns = patterns.map((source) => {
      const slash = source.indexOf('/');
      if (slash < 0) throw new SelectionError(`--select ${JSON.stringify(source)} must be kind/name (e.g. Rule/ssh-brute-force or Connector/soc-*)`);
      return { source, kind: globToRegExp(source.slice(0, slash)), name: globToRegExp(source.slice(slash + 1)) };
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
}

export class SelectionError extends Error {}

function globToRegExp(glob: string): RegExp {
  return new RegExp('^' + glob.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$', 's');
}
