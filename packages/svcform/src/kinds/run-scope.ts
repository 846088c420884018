/**
 * What lives for one command run and no longer: the lookups writes share (a space's connector
 * types, its exception lists), facts read from the target (Fleet package info) and per-run caches.
 * The CLI makes one per command and every adapter call of that run reaches it through
 * `AdapterContext.run`, so two runs in one process (tests, a plan against two targets) never see
 * each other's answers, and nothing is kept in module state.
 */
export class RunScope {
  readonly #values = new Map<RunKey<unknown>, unknown>();
  readonly #listings = new Map<string, readonly unknown[]>();

  /** The objects of a kind the run read in a space (the plan's live state), for lookups to start from. */
  recordListing(kind: string, space: string, objects: readonly unknown[]): void {
    this.#listings.set(`${kind}\u0000${space}`, objects);
  }

  listing(kind: string, space: string): readonly unknown[] | undefined {
    return this.#listings.get(`${kind}\u0000${space}`);
  }

  /** The run's value for `key`, made on first use. */
  get<V>(key: RunKey<V>): V {
    if (this.#values.has(key)) return this.#values.get(key) as V;
    const value = key.make();
    this.#values.set(key, value);
    return value;
  }
}

/** A slot of run state, declared once by the module that owns it. */
export class RunKey<V> {
  constructor(
    /** For debugging: what the slot holds. */
    readonly name: string,
    readonly make: () => V,
  ) {}
}
