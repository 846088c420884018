import { SpaceNotFoundError } from '../client/errors.js';
import { missingSpaces } from '../client/spaces.js';
import { fetchLive, type LiveState } from '../engine/live.js';
import { scopePairs } from '../engine/ownership.js';
import { adapterFor, knownKinds } from '../kinds/registry.js';
import type { KindAdapter } from '../kinds/types.js';
import type { ParseShare } from '../manifest/files.js';
import type { SvcformConfig } from './config.js';
import { chosenTarget, openTarget, type CommonOptions, type Io, type Target } from './context.js';
import type { ReadAheadMemory } from './read-ahead-memory.js';

/**
 * `plan` and `apply` against a server: the target is opened and live state read while the
 * manifests load, so that the round trips and the server's work overlap with parsing instead of
 * following it. What is read is a guess from the files' `kind:` lines in the default space (and the
 * manage scopes); whatever the plan needs beyond it is read afterwards as usual. Nothing is
 * written, and nothing is reported until the manifests are valid: messages wait, and a failure to
 * reach the server is raised only then, so an invalid manifest is still the error a user sees
 * first. apply notes the spaces' leases before reading (`observe`), and uses what was read only if
 * no other apply came in between (planning.ts LiveStateGuard). Where an earlier run with the same
 * target, space and paths left what its files declared and its plan listed (read-ahead-memory.ts),
 * reading starts from that at once, before the files are read.
 */
/**
 * Live state is read at once only when at most this share of the manifest bytes must be parsed;
 * otherwise it is read once the parse is nearly done (files.ts LATE_SHARE), so that the server
 * answers while the checks run. Measured on the 2,068 converted detection-rules (bench:plan
 * --against a build without read-ahead, emulator at 20 and 50 ms, 7 and 5 runs, load 1-2.5): with
 * every file to parse, reading at once made the plan 12-13% slower and cost 0.7 s more CPU (the
 * live state sits in the heap through the whole parse, so each collection of the parse's garbage
 * has more to mark); with the files in the cache it made the plan 1.5-8% faster, and 14-15% after
 * a `validate`. A pull request that changes a few files stays on the fast side. apply always reads
 * ahead: what it read before waiting for another apply's lease is what it compares with afterwards
 * (planning.ts revertsSince).
 */
const MAX_SHARE_TO_PARSE = 0.1;

export class ReadAhead {
  private opening?: Promise<Target>;
  private defaultMissing?: Promise<string[]>;
  private reading?: Promise<LiveState | undefined>;
  private readonly held: string[] = [];
  private released = false;
  /** The known kinds the files declare, with their `kind:` lines counted (once `start` saw them). */
  private declared?: Map<string, number>;
  /** The kinds being read ahead (none until `start` reads). */
  private readonly kindsRead = new Set<string>();
  /** The run's Io with its messages held until the manifests are known to be valid. */
  readonly heldIo: Io;
  /** How the reads find each kind's adapter (the progress display wraps them). */
  private lookup: (kind: string) => KindAdapter | undefined = adapterFor;

  constructor(
    private readonly opts: CommonOptions,
    private readonly config: SvcformConfig,
    private readonly io: Io,
    private readonly space: string,
    /** Runs once the target is open, before live state is read, with the spaces about to be read. */
    private readonly observe?: (target: Target, spaces: string[]) => Promise<void>,
    /** What the last run with the same target, space and paths read ahead, and where this one keeps its own. */
    private readonly memory?: ReadAheadMemory,
  ) {
    this.heldIo = { ...this.io, err: (t) => (this.released ? this.io.err(t) : this.held.push(t)) };
  }

  /** Reads through `lookup` instead of the registry (e.g. to count lists for the progress line). */
  readThrough(lookup: (kind: string) => KindAdapter | undefined): void {
    this.lookup = lookup;
  }

  /** Whether reading ahead applies: a server URL (the embedded emulator adds the manifests' spaces to itself first). */
  static applies(opts: CommonOptions, config: SvcformConfig, io: Io): boolean {
    return chosenTarget(opts, config, io) !== 'embedded';
  }

  /**
   * Starts opening the target (before the files are read: the connection is made meanwhile), and
   * reading what the last such run's files declared and its plan listed, if it left that.
   */
  open(): void {
    this.opening = openTarget(this.opts, this.config, this.heldIo, []);
    this.opening.catch(() => undefined);
    const remembered = this.memory?.recall();
    if (remembered) this.begin(remembered);
  }

  /**
   * Reads what the manifest files suggest: `kind: Name` lines, counted by name. At once when their
   * parse is short; otherwise hands back the start, for once the parse is nearly done (files.ts).
   * Nothing more when reading began from what the last run's files declared.
   */
  start(kindLines: Map<string, number>, share: ParseShare): void | (() => void) {
    const known = new Set(knownKinds());
    const kinds = new Map([...kindLines].filter(([kind]) => known.has(kind)));
    this.declared = kinds;
    if (this.reading) return;
    const begin = () => this.begin(kinds);
    if (share.toParse > share.total * MAX_SHARE_TO_PARSE) return begin;
    begin();
  }

  /**
   * Keeps for the next run what this one's files declared and, beside those, the other kinds its plan
   * listed in the default space (`listed`: those its rules name, Fleet's for the integration check),
   * which the next run then reads ahead too, counted 0. Nothing is kept when the files were not read.
   */
  remember(listed: ReadonlySet<string>): void {
    if (!this.declared) return;
    const kinds = new Map(this.declared);
    for (const kind of [...listed].sort()) if (!kinds.has(kind)) kinds.set(kind, 0);
    this.memory?.keep(kinds);
  }

  /** Reads `kinds` (known kinds, with about how many of each; 0 for one only listed) in the default space, and the manage scopes. */
  private begin(kinds: Map<string, number>): void {
    if (!this.opening) this.open();
    const pairs = [...[...kinds.keys()].map((kind) => ({ kind, space: this.space })), ...scopePairs(this.config.manage, [this.space])];
    this.defaultMissing = this.opening!.then((t) => missingSpaces(t.client, [this.space]));
    this.defaultMissing.catch(() => undefined);
    const spaces = [...new Set(pairs.map((p) => p.space))];
    for (const p of pairs) this.kindsRead.add(p.kind);
    this.reading = this.opening!.then(async (t) => {
      await this.observe?.(t, spaces);
      return fetchLive(t.ctx, pairs, this.lookup, () => true, undefined, (kind) => kinds.get(kind) || undefined, this.space);
    }).catch(() => undefined);
  }

  /** The target, once the manifests are valid: held messages printed, every space of the run checked. */
  async target(spaces: string[]): Promise<Target> {
    this.released = true;
    for (const line of this.held.splice(0)) this.io.err(line);
    const target = await this.opening!;
    try {
      // A read-ahead that never began (the files could not be read) leaves the home space to be checked with the rest.
      const [first, others] = await Promise.all([this.defaultMissing ?? missingSpaces(target.client, [this.space]), missingSpaces(target.client, spaces.filter((s) => s !== this.space))]);
      const missing = spaces.filter((s) => (s === this.space ? first : others).includes(s));
      if (missing.length > 0) throw new SpaceNotFoundError([...new Set(missing)], target.client.target);
      return target;
    } catch (err) {
      await target.close();
      throw err;
    }
  }

  /** Runs `use` on the target once it is open (at once when it is: before any answer still to come is read). */
  whenOpen(use: (target: Target) => void): void {
    this.opening?.then(use, () => undefined);
  }

  /** The kinds read ahead: a plan lists the others without waiting for these (engine/plan.ts). */
  kinds(): ReadonlySet<string> {
    return this.kindsRead;
  }

  /** Live state read ahead (undefined when reading failed: then everything is read again). */
  live(): Promise<LiveState | undefined> {
    return this.reading ?? Promise.resolve(undefined);
  }

  /** The manifests are invalid: close whatever was opened, say nothing. */
  async abandon(): Promise<void> {
    this.released = true;
    const target = await this.opening?.catch(() => undefined);
    await this.reading;
    await target?.close();
  }
}
