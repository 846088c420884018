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
  readonly #pending = new Map<string, { done: Promise<readonly unknown[] | undefined>; settle: (objects: readonly unknown[] | undefined) => void }>();

  /**
   * The run is about to read a kind in a space (the plan's live state): an adapter that needs that
   * listing too (`awaitListing`) waits for it instead of reading the same pages again. Each
   * expected listing must end with `recordListing`, with undefined when the read failed.
   */
  expectListing(kind: string, space: string): void {
    const key = `${kind}\u0000${space}`;
    if (this.#listings.has(key) || this.#pending.has(key)) return;
    let settle!: (objects: readonly unknown[] | undefined) => void;
    const done = new Promise<readonly unknown[] | undefined>((resolve) => (settle = resolve));
    this.#pending.set(key, { done, settle });
  }

  /** The objects of a kind the run read in a space (the plan's live state), for lookups to start from; undefined when the read failed. */
  recordListing(kind: string, space: string, objects: readonly unknown[] | undefined): void {
    const key = `${kind}\u0000${space}`;
    if (objects) this.#listings.set(key, objects);
    this.#pending.get(key)?.settle(objects);
    this.#pending.delete(key);
  }

  listing(kind: string, space: string): readonly unknown[] | undefined {
    return this.#listings.get(`${kind}\u0000${space}`);
  }

  /** The listing once the run has it: now, after the read under way, or undefined when the run reads none (or it failed). */
  async awaitListing(kind: string, space: string): Promise<readonly unknown[] | undefined> {
    const key = `${kind}\u0000${space}`;
    return this.#listings.get(key) ?? this.#pending.get(key)?.done;
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
