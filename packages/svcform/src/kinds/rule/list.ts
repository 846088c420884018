import { ResponseError } from '../../client/errors.js';
import type { Requester } from '../../client/types.js';
import { listAllPages } from '../paging.js';

/**
 * Every rule of a space through `GET /api/detection_engine/rules/_find`, in pages of 250 to 1,000
 * rules (`pageSizeFor`) and past the search window: `_find` pages only through the first 10,000 rules of a
 * query (page x per_page <= 10,000, wire-facts 0.4), so a larger space is read as several queries
 * that each stay inside it. They partition the rules by the first characters of their rule_id
 * (`alert.attributes.params.ruleId: ab*`, the field the server itself looks rules up by), with
 * one more query for whatever starts otherwise; a part still too large is split further. The
 * parts' counts must add up to the whole's, and the rules found to the space's total, or the
 * listing fails rather than plan from a partial picture.
 *
 * Where to split is guessed from the rules of the part's first page (read anyway): the start they
 * all share, confirmed by counts (one request of one rule each, halving its length), and the
 * characters that follow it; the rest of the alphabet only when what none of those start with is
 * still too large. An organisation's ids sharing `acme-sec-` were split one character at a time,
 * one query per character of the alphabet each: 20,000 generated rules of `real-NNNNN` took
 * 5 rounds of 65 queries, 44 s against the emulator, where a few counts and two parts do.
 */

const FIND_PATH = '/api/detection_engine/rules/_find';
/** The largest page; also the size of a query whose count is not known beforehand. */
const PAGE_SIZE = 1000;
/** Page sizes that divide the search window, so that no page of a query reaches past it; largest first. */
const PAGE_SIZES = [PAGE_SIZE, 500, 250];
/** Pages a listing of known size comes in at least (unless its pages would fall under 250 rules). */
const MIN_PAGES = 8;
export const SEARCH_WINDOW = 10_000;
const RULE_ID = 'alert.attributes.params.ruleId';
/** Characters rule_ids start with (UUIDs, slugs); any other start falls to the remainder query. */
const ALPHABET = [...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_'];
/**
 * Prefixes longer than this are not split further. Rule ids often share a long start (an
 * organisation's `acme-detection-`), which is found by counts and split at its end, so only a
 * server whose counts never settle reaches this.
 */
const MAX_PREFIX = 64;
/** Far beyond any real space (design.md: 2,000 to 10,000 rules); a total above it is not believed. */
const MAX_RULES = 1_000_000;

type Rule = Record<string, any>;

/** Where a listing reads, and what it does with each rule as its page arrives. */
interface Listing {
  api: Requester;
  space: string;
  /** Called on each rule of a page as the page arrives (rule.ts shares the manifests' long texts). */
  each?: (rule: Rule) => void;
}

interface Part {
  filter?: string;
  /** Set for a prefix part, which can be split further. */
  prefix?: string;
  /** For the part of what starts with none of the characters tried: those characters. */
  excluded?: string[];
}

interface Read {
  /** All the rules of the part, when its total fits the search window. */
  rules?: Rule[];
  total: number;
  /** The rule_ids of its first page (where to split it). */
  sample: string[];
}

const startingWith = (prefix: string) => `${RULE_ID}: ${prefix}*`;

/**
 * Rules a page for a query expected to hold `expected` rules: the largest size that still makes
 * MIN_PAGES pages, 250 at least, and 1,000 when nothing is expected. Each page is decoded and
 * its rules handed on as it arrives, while the server still answers the pages after it; the
 * 2,068 rules of the converted detection-rules repository came in 3 pages of 1,000 (7.9 MB each),
 * and the plan waited for the first of them whole (bench:plan --dir, see docs/architecture.md).
 */
export function pageSizeFor(expected: number | undefined): number {
  if (expected === undefined) return PAGE_SIZE;
  return PAGE_SIZES.find((size) => expected >= size * MIN_PAGES) ?? PAGE_SIZES[PAGE_SIZES.length - 1];
}

/**
 * One query: all its pages when its total fits the search window, else the total and the rule_ids
 * of its first page (the query must be split).
 */
async function readPart(at: Listing, part: Part, expected?: number): Promise<Read> {
  let total = 0;
  const rules = await listAllPages<Rule>(at.api, {
    path: FIND_PATH,
    space: at.space,
    query: { sort_field: 'created_at', sort_order: 'asc', ...(part.filter ? { filter: part.filter } : {}) },
    sizeParam: 'per_page',
    pageSize: pageSizeFor(expected),
    // Pages requested before the total is known stay inside the window.
    expected: expected === undefined ? undefined : Math.min(expected, SEARCH_WINDOW),
    items: (body) => {
      const data = body?.data;
      if (at.each && Array.isArray(data)) for (const rule of data) if (rule !== null && typeof rule === 'object') at.each(rule);
      return data;
    },
    total: (body) => {
      total = body?.total;
      return typeof total === 'number' && total > SEARCH_WINDOW ? 0 : total;
    },
  });
  if (total <= SEARCH_WINDOW) return { rules, total, sample: [] };
  return { total, sample: rules.map((r) => r.rule_id).filter((id): id is string => typeof id === 'string') };
}

/** How many rules start with `prefix` (one request of one rule). */
async function countStarting(at: Listing, prefix: string): Promise<number> {
  const res = await at.api.request({ method: 'GET', path: FIND_PATH, space: at.space, query: { sort_field: 'created_at', sort_order: 'asc', filter: startingWith(prefix), page: 1, per_page: 1 } });
  const total = (res.body as { total?: unknown } | undefined)?.total;
  if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0) throw new ResponseError(`GET ${FIND_PATH}: the server reported ${JSON.stringify(total)} rules starting with "${prefix}", which is not a count`);
  return total;
}

const IN_ALPHABET = new Set(ALPHABET);

/** The longest start all of `ids` share, in characters of the alphabet (a filter names it as it is), at most MAX_PREFIX long. */
function sharedStart(ids: string[]): string {
  if (ids.length === 0) return '';
  let shared = ids[0];
  for (const id of ids) {
    let i = 0;
    while (i < shared.length && shared[i] === id[i]) i++;
    shared = shared.slice(0, i);
  }
  let end = 0;
  while (end < shared.length && end < MAX_PREFIX && IN_ALPHABET.has(shared[end])) end++;
  return shared.slice(0, end);
}

/**
 * The longest start every rule under `prefix` (`total` of them) shares, guessed from `sample` and
 * confirmed by counts, halving the length in doubt each time.
 */
async function commonStart(at: Listing, prefix: string, total: number, sample: string[]): Promise<string> {
  const guess = sharedStart(sample.filter((id) => id.startsWith(prefix)));
  let known = prefix.length;
  let most = guess.length;
  while (known < most) {
    const length = Math.ceil((known + most) / 2);
    if ((await countStarting(at, guess.slice(0, length))) === total) known = length;
    else most = length - 1;
  }
  return known > prefix.length ? guess.slice(0, known) : prefix;
}

/**
 * The rules whose rule_id starts with `prefix` (`total` of them): the start they all share found
 * first, then split by the characters that follow it in `sample`.
 */
async function readSplit(at: Listing, prefix: string, total: number, sample: string[], into: Map<string, Rule>): Promise<void> {
  const start = await commonStart(at, prefix, total, sample);
  const next = [...new Set(sample.filter((id) => id.startsWith(start) && IN_ALPHABET.has(id[start.length])).map((id) => id[start.length]))];
  await readParts(at, start, total, next.length > 0 ? next : ALPHABET, [], into);
}

/**
 * The rules starting with `prefix` but with none of `excluded` after it (`total` of them): one
 * part per character of `chars`, and one for the rest. The parts do not overlap, so their totals
 * must add up to `total`: a server whose counts do not is not split any further.
 */
async function readParts(at: Listing, prefix: string, total: number, chars: string[], excluded: string[], into: Map<string, Rule>): Promise<void> {
  const parts: Part[] = chars.map((c) => ({ prefix: prefix + c, filter: startingWith(prefix + c) }));
  const none = `NOT (${[...excluded, ...chars].map((c) => startingWith(prefix + c)).join(' OR ')})`;
  parts.push({ filter: prefix ? `${startingWith(prefix)} AND ${none}` : none, excluded: [...excluded, ...chars] });
  const read = await Promise.all(parts.map((part) => readPart(at, part)));
  const sum = read.reduce((n, r) => n + r.total, 0);
  if (sum !== total) {
    throw new ResponseError(`GET ${FIND_PATH}: space ${at.space} holds ${total} rules${prefix ? ` starting with "${prefix}"` : ''} but the queries by rule_id count ${sum} (the rules changed while they were read?); run again`);
  }
  await Promise.all(
    read.map(async ({ rules, total: partTotal, sample }, i) => {
      const part = parts[i];
      if (rules) {
        for (const r of rules) into.set(r.id, r);
        return;
      }
      if (part.prefix !== undefined && part.prefix.length < MAX_PREFIX) return readSplit(at, part.prefix, partTotal, sample, into);
      const untried = part.excluded ? ALPHABET.filter((c) => !part.excluded!.includes(c)) : [];
      if (untried.length > 0) return readParts(at, prefix, partTotal, untried, part.excluded!, into);
      throw new ResponseError(`GET ${FIND_PATH}: space ${at.space} holds more than ${SEARCH_WINDOW} rules matching ${part.filter}, more than one query can page through (page x per_page <= ${SEARCH_WINDOW}), and they cannot be split by rule_id any further`);
    }),
  );
}

/**
 * Every rule of `space`; `expected` (about how many the caller expects) lets the pages go out at
 * once, and `each` is called on every rule read, as its page arrives.
 */
export async function listRules(api: Requester, space: string, expected?: number, each?: (rule: Rule) => void): Promise<Rule[]> {
  const at: Listing = { api, space, each };
  // More rules expected than one query pages through: the first page tells the total and where
  // to split, and the pages after it would be read again by the parts.
  const { rules, total, sample } = await readPart(at, {}, expected !== undefined && expected > SEARCH_WINDOW ? undefined : expected);
  if (rules) return rules;
  if (total > MAX_RULES) throw new ResponseError(`GET ${FIND_PATH}: space ${space} holds ${total} rules by the server's count, more than svcform reads (${MAX_RULES})`);
  const found = new Map<string, Rule>();
  await readSplit(at, '', total, sample, found);
  if (found.size !== total) {
    throw new ResponseError(`GET ${FIND_PATH}: space ${space} holds ${total} rules but the queries by rule_id found ${found.size} (the rules changed while they were read?); run again`);
  }
  return [...found.values()];
}
