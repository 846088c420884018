export interface LoggedRequest {
  seq: number;
  time: string;
  method: string;
  /** Full path as received, with any `/s/{space}` prefix, without the query string. */
  path: string;
  query: string;
  space: string;
  /** The matched route pattern, e.g. `/api/detection_engine/rules/_find`, or '' when none matched. */
  route: string;
  status: number;
  /**
   * The error message answered with a status of 400 or more, so that a test (or a person reading
   * /__emulator/requests) sees why a request was refused without replaying it.
   */
  error?: string;
}

/** Bounded log of API requests (control routes excluded), plus per-route counts that never drop. */
export class RequestLog {
  private entries: LoggedRequest[] = [];
  private seq = 0;
  readonly counts = new Map<string, number>();

  constructor(private readonly limit = 200_000) {}

  add(entry: Omit<LoggedRequest, 'seq'>): LoggedRequest {
    const full = { seq: ++this.seq, ...entry };
    this.entries.push(full);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
    const key = `${entry.method} ${entry.route || entry.path}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    return full;
  }

  all(): LoggedRequest[] {
    return this.entries.slice();
  }

  clear(): void {
    this.entries = [];
    this.counts.clear();
  }

  countsObject(): Record<string, number> {
    return Object.fromEntries([...this.counts.entries()].sort());
  }
}
