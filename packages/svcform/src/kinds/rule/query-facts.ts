import type { DiskCache } from '../../common/disk-cache.js';
import { readyLanguage } from '@svcform/query/preload.js';
import type { QueryLanguageName } from '@svcform/query/types.js';

/**
 * What the checks of a rule query need of its parse: where its syntax is wrong, or the fields it
 * names. These depend on nothing but the language and the text, so they are computed once per
 * distinct query and kept between runs (issue 10: parsing 2,068 queries was a quarter of a plan).
 * In memory the map is in order of last use, so what is written back keeps the most recent.
 */
export interface QueryFacts {
  problem?: { offset: number; message: string };
  fields: Array<{ name: string; offset: number }>;
  /** What the parser could not judge offline (CompiledQuery.notes): warnings. */
  notes?: Array<{ offset: number; message: string }>;
}

const FACTS = new Map<string, QueryFacts>();
const CACHE_ENTRY = 'query-checks';
const CACHE_FORMAT = 2;
/**
 * Entries written back at most, besides those this run used (all kept, so that a repository larger
 * than this never re-parses its own queries): the queries of a few repositories or branches.
 */
const CACHE_LIMIT = 20_000;
let cache: DiskCache | undefined;
/** Whether the facts kept in `cache` are still to be read (at the first query checked). */
let keptUnread = false;
let parsed = 0;
let reused = 0;
/** Distinct queries checked in this run: the last entries of FACTS. */
const used = new Set<string>();

function factsOfParse(language: QueryLanguageName, text: string): QueryFacts | undefined {
  const outcome = readyLanguage(language)?.parse(text);
  if (!outcome) return undefined; // not loaded (nobody preloaded) or not part of this build: not checked
  if (!outcome.ok) return { problem: { offset: outcome.problem.offset, message: outcome.problem.message }, fields: [] };
  const facts: QueryFacts = { fields: outcome.query.fields.map(({ name, offset }) => ({ name, offset })) };
  if (outcome.query.notes?.length) facts.notes = outcome.query.notes.map(({ offset, message }) => ({ offset, message }));
  return facts;
}

/** The facts of a query: known (kept by an earlier run, or met before in this one) or parsed now. */
export function factsOf(language: QueryLanguageName, text: string): QueryFacts | undefined {
  readKept();
  const key = `${language}\u0000${text}`;
  let facts = FACTS.get(key);
  if (facts) {
    FACTS.delete(key);
    reused++;
  } else {
    facts = factsOfParse(language, text);
    if (!facts) return undefined;
    parsed++;
  }
  FACTS.set(key, facts);
  used.add(key);
  return facts;
}

/**
 * Keeps what this run adds to the facts in `diskCache` (saveQueryFacts), and reads those kept by
 * earlier runs once a query is first checked: a plan whose documents are all known clean checks
 * none, and reading the 1,963 facts of the real rules (3.2 MB, the queries' text included) took
 * 25-40 ms of it.
 */
export function useQueryFactsCache(diskCache: DiskCache | undefined): void {
  cache = diskCache;
  keptUnread = true;
}

function readKept(): void {
  if (!keptUnread) return;
  keptUnread = false;
  const stored = cache?.read(CACHE_ENTRY) as { format?: unknown; entries?: unknown } | undefined;
  if (stored?.format !== CACHE_FORMAT || !Array.isArray(stored.entries)) return;
  for (const entry of stored.entries) {
    // A damaged or foreign entry is skipped, never trusted.
    if (Array.isArray(entry) && typeof entry[0] === 'string' && isFacts(entry[1]) && !FACTS.has(entry[0])) FACTS.set(entry[0], entry[1]);
  }
}

/**
 * Writes the facts back when this run parsed any query; says how many queries were parsed and how
 * many checked from facts already known (kept by an earlier run, or met earlier in this one).
 */
export function saveQueryFacts(): { parsed: number; reused: number } {
  const counts = { parsed, reused };
  const keep = Math.max(CACHE_LIMIT, used.size);
  parsed = 0;
  reused = 0;
  used.clear();
  if (counts.parsed > 0 && cache) {
    const entries = [...FACTS];
    cache.write(CACHE_ENTRY, { format: CACHE_FORMAT, entries: entries.slice(Math.max(0, entries.length - keep)) });
  }
  return counts;
}

function isFacts(value: unknown): value is QueryFacts {
  const v = value as QueryFacts | undefined;
  if (!v || typeof v !== 'object' || !Array.isArray(v.fields)) return false;
  const isPlace = (p: { offset?: unknown; message?: unknown }) => p && typeof p.offset === 'number' && typeof p.message === 'string';
  if (v.problem !== undefined && !isPlace(v.problem)) return false;
  if (v.notes !== undefined && !(Array.isArray(v.notes) && v.notes.every(isPlace))) return false;
  return v.fields.every((f) => f && typeof f.name === 'string' && typeof f.offset === 'number');
}
