/**
 * A counting semaphore that hands slots out strictly in arrival order: a released slot goes
 * straight to the oldest waiter, so a late arrival can never overtake a queued request.
 */
export class Semaphore {
  private active = 0;
  private readonly waiters: Array<() => void> = [];
  private head = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  }

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiters.length - this.head;
  }

  acquire(): Promise<void> {
    if (this.active < this.limit && this.queued === 0) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    if (this.queued > 0) {
      // The slot passes to the next waiter without ever being free.
      const next = this.waiters[this.head];
      this.head += 1;
      if (this.head > 1024 && this.head * 2 > this.waiters.length) {
        this.waiters.splice(0, this.head);
        this.head = 0;
      }
      next();
      return;
    }
    if (this.active === 0) throw new Error('semaphore released more often than acquired');
    this.active -= 1;
  }
}

/**
 * At most `overall` requests in flight, and at most `perArea[area]` of one area where a tighter
 * limit is set. A request first queues for its area and then for an overall slot: a queue of
 * Fleet writes waiting on the Fleet limit never blocks rules or lists behind it.
 */
export class Limiter {
  private readonly overall: Semaphore;
  private readonly areas = new Map<string, Semaphore>();

  constructor(overall: number, perArea: Record<string, number> = {}) {
    this.overall = new Semaphore(overall);
    for (const [area, limit] of Object.entries(perArea)) this.areas.set(area, new Semaphore(limit));
  }

  get inFlight(): number {
    return this.overall.inFlight;
  }

  /** Waits for a slot; the returned function gives it back (calling it twice is harmless). */
  async acquire(area: string): Promise<() => void> {
    const areaLimit = this.areas.get(area);
    if (areaLimit) await areaLimit.acquire();
    await this.overall.acquire();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.overall.release();
      areaLimit?.release();
    };
  }
}
