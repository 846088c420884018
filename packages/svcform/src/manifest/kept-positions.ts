import type { DiskCache } from '../common/disk-cache.js';
import { getAt } from '../common/pointer.js';
import type { DocPath, SourcePos } from './types.js';

/**
 * Where fields of cached documents sit in their files, kept once a message asked for them. A kept
 * document (manifest-cache.ts) has only its value and its start; the place of a field inside it
 * comes from parsing its file again. Messages ask for places when shown (common/later.ts), a plan's,
 * the cross-document checks' and the checks' own warnings alike: a repository whose every rule
 * names a timeline template the server does not hold got one plan warning per rule, and each
 * repeated plan read and parsed every file again for those places (2,051 real rules given such a
 * reference: 0.59 s of a 1.6 s repeated plan). Places depend only on a document's bytes, so the
 * answers are kept under the document's key, and the next run gives them without the file.
 */

const ENTRY = 'positions';
const FORMAT = 1;
/** Places of documents a run did not meet are dropped once they outnumber those it met by this many. */
const KEEP_UNMET = 10_000;

type PosInScalar = (path: DocPath, offset: number, text: string) => SourcePos | undefined;

/** Path (as JSON; `@offset` after it for a place inside the string there) -> [line, col], per document key. */
type Places = Map<string, [number, number]>;

function isPlaces(v: unknown): v is Places {
  if (!(v instanceof Map)) return false;
  for (const [k, at] of v) if (typeof k !== 'string' || !Array.isArray(at) || at.length !== 2 || !Number.isInteger(at[0]) || !Number.isInteger(at[1])) return false;
  return true;
}

export class KeptPositions {
  private stored?: Map<string, Places>;
  /** Places this run found that were not kept, by document key. */
  private readonly found = new Map<string, Places>();
  /** Documents handed out this run. */
  private readonly met = new Set<string>();

  constructor(
    private readonly disk: DiskCache,
    private readonly writes: boolean,
  ) {}

  private storedPlaces(): Map<string, Places> {
    if (!this.stored) {
      const entry = this.disk.read(ENTRY) as { format?: unknown; places?: unknown } | undefined;
      this.stored = new Map();
      if (entry?.format === FORMAT && entry.places instanceof Map) {
        for (const [key, places] of entry.places as Map<unknown, unknown>) if (typeof key === 'string' && isPlaces(places)) this.stored.set(key, places);
      }
    }
    return this.stored;
  }

  /**
   * `posOf` of the document kept under `key` in the file shown as `file`: a place kept before, else
   * what `parse` says (which may read and parse the file), kept for the next run when it lies in
   * that file. The kept places are read at the first question, so a run that asks none reads none.
   */
  posOf(key: string, file: string, parse: (path: DocPath) => SourcePos): (path: DocPath) => SourcePos {
    this.met.add(key);
    return (path) => {
      const step = JSON.stringify(path);
      const known = this.known(key, step);
      if (known) return { file, line: known[0], col: known[1] };
      const pos = parse(path);
      if (pos.file === file) this.keep(key, step, [pos.line, pos.col]);
      return pos;
    };
  }

  /**
   * `posInScalar` of the same document, whose value is `value`, kept as posOf's places are: for the
   * string the document holds at the path only (another string may decode otherwise, or not at all).
   */
  posInScalar(key: string, file: string, value: unknown, parse: PosInScalar): PosInScalar {
    this.met.add(key);
    return (path, offset, text) => {
      if (getAt(value, path.map(String)) !== text) return parse(path, offset, text);
      const step = `${JSON.stringify(path)}@${offset}`;
      const known = this.known(key, step);
      // Lines count from 1: [0, 0] says the source of the string does not decode to it.
      if (known) return known[0] === 0 ? undefined : { file, line: known[0], col: known[1] };
      const pos = parse(path, offset, text);
      if (!pos || pos.file === file) this.keep(key, step, pos ? [pos.line, pos.col] : [0, 0]);
      return pos;
    };
  }

  private known(key: string, step: string): [number, number] | undefined {
    return this.found.get(key)?.get(step) ?? this.storedPlaces().get(key)?.get(step);
  }

  private keep(key: string, step: string, at: [number, number]): void {
    let places = this.found.get(key);
    if (!places) this.found.set(key, (places = new Map()));
    places.set(step, at);
  }

  /** Stores the places found since the last save (when this run writes), with those kept before. */
  save(): void {
    if (!this.writes || this.found.size === 0) return;
    const stored = this.storedPlaces();
    const unmet = [...stored.keys()].filter((key) => !this.met.has(key)).length;
    const kept = unmet > this.met.size + KEEP_UNMET ? new Map([...stored].filter(([key]) => this.met.has(key))) : stored;
    for (const [key, places] of this.found) kept.set(key, new Map([...(kept.get(key) ?? []), ...places]));
    this.found.clear();
    this.stored = kept;
    this.disk.write(ENTRY, { format: FORMAT, places: kept });
  }
}
