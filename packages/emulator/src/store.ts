import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';

export interface StoreData {
  /** Known spaces, `default` always among them. */
  spaces: string[];
  /** Per space, per area: whatever JSON-serializable state the area keeps. */
  bySpace: Record<string, Record<string, unknown>>;
  /** State that is not space-scoped (e.g. the Fleet package install status, settings). */
  global: Record<string, unknown>;
  /** Monotonic counter behind `_version` tokens and sequence numbers. */
  seq: number;
}

function emptyData(spaces: string[] = []): StoreData {
  const all = Array.from(new Set(['default', ...spaces]));
  return { spaces: all, bySpace: {}, global: {}, seq: 0 };
}

/**
 * The emulator's whole state. Areas reach their own slice with `area(space, name, init)`; every
 * write must call `touch()` so that `--state` persistence sees it. Persistence is coalesced: a
 * burst of writes is saved once, and `flush()` (called by stop) saves what is pending at once.
 */
export class Store {
  data: StoreData;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly stateFile?: string, private readonly initialSpaces: string[] = []) {
    this.data = emptyData(initialSpaces);
    if (stateFile && existsSync(stateFile)) {
      const loaded = JSON.parse(readFileSync(stateFile, 'utf8')) as StoreData;
      this.data = { ...emptyData(initialSpaces), ...loaded };
      for (const s of initialSpaces) if (!this.data.spaces.includes(s)) this.data.spaces.push(s);
    }
  }

  hasSpace(space: string): boolean {
    return this.data.spaces.includes(space);
  }

  addSpace(space: string): void {
    if (!this.hasSpace(space)) {
      this.data.spaces.push(space);
      this.touch();
    }
  }

  /** The space and everything in it are gone (DELETE /api/spaces/space/{id}). */
  removeSpace(space: string): void {
    this.data.spaces = this.data.spaces.filter((s) => s !== space);
    delete this.data.bySpace[space];
    this.touch();
  }

  area<T>(space: string, name: string, init: () => T): T {
    const slot = (this.data.bySpace[space] ??= {});
    if (!(name in slot)) slot[name] = init();
    return slot[name] as T;
  }

  global<T>(name: string, init: () => T): T {
    if (!(name in this.data.global)) this.data.global[name] = init();
    return this.data.global[name] as T;
  }

  nextSeq(): number {
    this.data.seq += 1;
    return this.data.seq;
  }

  /** A base64 token in the shape of the search backend's `_version` (`WzIsMV0=`). */
  versionToken(): string {
    const n = this.nextSeq();
    return Buffer.from(JSON.stringify([n, 1])).toString('base64');
  }

  reset(): void {
    this.data = emptyData(this.initialSpaces);
    this.touch();
  }

  touch(): void {
    if (!this.stateFile) return;
    this.dirty = true;
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, 20);
      this.timer.unref();
    }
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.stateFile || !this.dirty) return;
    mkdirSync(dirname(this.stateFile), { recursive: true });
    const tmp = `${this.stateFile}.${process.pid}.tmp`;
    // The state holds connector secrets: readable by its owner only.
    writeFileSync(tmp, JSON.stringify(this.data), { mode: 0o600 });
    renameSync(tmp, this.stateFile);
    this.dirty = false;
  }
}
