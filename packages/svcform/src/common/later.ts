/**
 * A value worked out when first asked for, once. Messages use it for their places: the place of a
 * field costs a parse of its document (of its whole file for a document read from the cache), and
 * text output shows one place per group of like findings, so most places are never asked for.
 */
export class Later<V> {
  private compute: (() => V) | undefined;
  private value: V | undefined;

  constructor(compute: () => V) {
    this.compute = compute;
  }

  get(): V {
    if (this.compute) {
      this.value = this.compute();
      this.compute = undefined;
    }
    return this.value as V;
  }

  /** Whether it was asked for (and so worked out). */
  get known(): boolean {
    return this.compute === undefined;
  }
}

/**
 * `target`, with `key` read from `later`: enumerable, so JSON output and object spreads see the
 * value (and work it out).
 */
export function defineLater<T extends object, K extends string, V>(target: T, key: K, later: Later<V>): T & { [P in K]: V } {
  return Object.defineProperty(target, key, { enumerable: true, configurable: true, get: () => later.get() }) as T & { [P in K]: V };
}
