import { ResponseError } from '../../client/errors.js';
import type { Requester } from '../../client/types.js';
import { listAllPages } from '../paging.js';

/**
 * Every rule of a space through `GET /api/detection_engine/rules/_find`, with the largest pages
 * (1,000) and past the search window: `_find` pages only through the first 10,000 rules of a
 * query (page x per_page <= 10,000, wire-facts 0.4), so a larger space is read as several queries
 * that each stay inside it. They partition the rules by the first characters of their rule_id
 * (`alert.attributes.params.ruleId: ab*`, the field the server itself looks rules up by), with
 * one more query for whatever starts otherwise; a part still too large is split on its next
 * character. The parts' counts must add up to the whole's, and the rules found to the space's
 * total, or the listing fails rather than plan from a partial picture.
 */

const FIND_PATH = '/api/detection_engine/rules/_find';
const PAGE_SIZE = 1000;
export const SEARCH_WINDOW = 10_000;
const RULE_ID = 'alert.attributes.params.ruleId';
/** Characters rule_ids start with (UUIDs, slugs); any other start falls to the remainder query. */
const ALPHABET = [...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_'];
/**
 * Prefixes longer than this are not split further. Rule ids often share a long start (an
 * organisation's `acme-detection-`); each shared character costs one round of counts, one query
 * per character of the alphabet, so only a server whose counts never settle reaches this.
 */
const MAX_PREFIX = 64;
/** Far beyond any real space (design.md: 2,000 to 10,000 rules); a total above it is not believed. */
const MAX_RULES = 1_000_000;

type Rule = Record<string, any>;

interface Part {
  filter?: string;
  /** Set for a prefix part, which can be split further. */
  prefix?: string;
}

/**
 * One query: all its pages when its total fits the search window, else only the total (the
 * query must be split).
 */
async function readPart(api: Requester, space: string, part: Part, expected?: number): Promise<{ rules?: Rule[]; total: number }> {
  let total = 0;
  const rules = await listAllPages<Rule>(api, {
    path: FIND_PATH,
    space,
    query: { sort_field: 'created_at', sort_order: 'asc', ...(part.filter ? { filter: part.filter } : {}) },
    sizeParam: 'per_page',
    pageSize: PAGE_SIZE,
    // Pages requested before the total is known stay inside the window.
    expected: expected === undefined ? undefined : Math.min(expected, SEARCH_WINDOW),
    items: (body) => body.data,
    total: (body) => {
      total = body?.total;
      return typeof total === 'number' && total > SEARCH_WINDOW ? 0 : total;
    },
  });
  return total > SEARCH_WINDOW ? { total } : { rules, total };
}

/** The parts a prefix splits into: one per next character, and the rest of the prefix. */
function split(prefix: string): Part[] {
  const own = `${RULE_ID}: ${prefix}*`;
  const parts: Part[] = ALPHABET.map((c) => ({ prefix: prefix + c, filter: `${RULE_ID}: ${prefix}${c}*` }));
  const rest = ALPHABET.map((c) => `${RULE_ID}: ${prefix}${c}*`).join(' OR ');
  parts.push({ filter: prefix ? `${own} AND NOT (${rest})` : `NOT (${rest})` });
  return parts;
}

/**
 * The rules whose rule_id starts with `prefix` (`total` of them), by the parts it splits into.
 * The parts do not overlap, so their totals must add up to `total`: a server whose counts do not
 * is not split any further.
 */
async function readSplit(api: Requester, space: string, prefix: string, total: number, into: Map<string, Rule>): Promise<void> {
  const parts = split(prefix);
  const read = await Promise.all(parts.map((part) => readPart(api, space, part)));
  const sum = read.reduce((n, r) => n + r.total, 0);
  if (sum !== total) {
    throw new ResponseError(`GET ${FIND_PATH}: space ${space} holds ${total} rules${prefix ? ` starting with "${prefix}"` : ''} but the queries by rule_id count ${sum} (the rules changed while they were read?); run again`);
  }
  await Promise.all(
    read.map(async ({ rules, total: partTotal }, i) => {
      const part = parts[i];
      if (rules) {
        for (const r of rules) into.set(r.id, r);
        return;
      }
      if (part.prefix === undefined || part.prefix.length >= MAX_PREFIX) {
        throw new ResponseError(`GET ${FIND_PATH}: space ${space} holds more than ${SEARCH_WINDOW} rules matching ${part.filter}, more than one query can page through (page x per_page <= ${SEARCH_WINDOW}), and they cannot be split by rule_id any further`);
      }
      await readSplit(api, space, part.prefix, partTotal, into);
    }),
  );
}

/** Every rule of `space`; `expected` (about how many the caller expects) lets the pages go out at once. */
export async function listRules(api: Requester, space: string, expected?: number): Promise<Rule[]> {
  const { rules, total } = await readPart(api, space, {}, expected);
  if (rules) return rules;
  if (total > MAX_RULES) throw new ResponseError(`GET ${FIND_PATH}: space ${space} holds ${total} rules by the server's count, more than svcform reads (${MAX_RULES})`);
  const found = new Map<string, Rule>();
  await readSplit(api, space, '', total, found);
  if (found.size !== total) {
    throw new ResponseError(`GET ${FIND_PATH}: space ${space} holds ${total} rules but the queries by rule_id found ${found.size} (the rules changed while they were read?); run again`);
  }
  return [...found.values()];
}
