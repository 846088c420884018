import type { CheckContext, CheckIssue, DocPath, Resource } from '../manifest/types.js';
import type { DiskCache } from '../common/disk-cache.js';
import { closest } from '../manifest/suggest.js';
import { quotedText } from '../manifest/short-text.js';
import { ecsFieldTypes } from '../query/ecs-fields.js';
import { readyLanguage } from '../query/preload.js';
import type { ParseOutcome, QueryLanguageName } from '../query/types.js';

/**
 * Offline checks of a rule's queries: each is parsed in its language (an error points at its
 * place inside the YAML string), and the fields it names must be the rule's required_fields, ECS
 * fields or fields the project declares (svcform.yaml `fields:`); an unknown field is a warning
 * with a "did you mean", an error under --strict. `metadata.checks.queryFields: false` turns the
 * field check off for one rule. Field patterns (`process.*`) are not checked.
 */

export interface RuleQuery {
  path: DocPath;
  /** The name the message uses (`query`, `threat_query`). */
  label: string;
  text: string;
  language: QueryLanguageName;
}

/** The queries of a rule spec and their languages, as the rule's type and language fields decide. */
export function ruleQueries(spec: Record<string, any>): RuleQuery[] {
  const out: RuleQuery[] = [];
  const type = spec.type;
  const language: QueryLanguageName | undefined =
    type === 'eql' ? 'eql' : type === 'qlang' ? 'qlang' : ['query', 'saved_query', 'threshold', 'new_terms', 'threat_match'].includes(type) ? (spec.language === 'lucene' ? 'lucene' : 'kuery') : undefined;
  if (language && typeof spec.query === 'string') out.push({ path: ['spec', 'query'], label: 'query', text: spec.query, language });
  if (type === 'threat_match' && typeof spec.threat_query === 'string') {
    out.push({ path: ['spec', 'threat_query'], label: 'threat_query', text: spec.threat_query, language: spec.threat_language === 'lucene' ? 'lucene' : 'kuery' });
  }
  return out;
}

/** Each distinct query is parsed once per process (10,000 rules often share a few hundred queries). */
const PARSED = new Map<string, ParseOutcome>();

export function parseCached(language: QueryLanguageName, text: string): ParseOutcome | undefined {
  const parser = readyLanguage(language);
  if (!parser) return undefined; // not loaded (nobody preloaded) or not part of this build: not checked
  const key = `${language}\u0000${text}`;
  let outcome = PARSED.get(key);
  if (!outcome) {
    outcome = parser.parse(text);
    PARSED.set(key, outcome);
  }
  return outcome;
}

/**
 * What the checks need of a parsed query: where its syntax is wrong, or the fields it names. These
 * depend on nothing but the language and the text, so they are kept between runs (issue 10:
 * parsing 2,068 distinct queries was a sixth of a plan). In memory the map is in order of last
 * use, so what is written back keeps the most recently used entries.
 */
interface QueryFacts {
  problem?: { offset: number; message: string };
  fields: Array<{ name: string; offset: number }>;
}

const FACTS = new Map<string, QueryFacts>();
const CACHE_ENTRY = 'query-checks';
const CACHE_FORMAT = 1;
/** Entries written back at most: the queries of a few large repositories. */
const CACHE_LIMIT = 50_000;
let cache: DiskCache | undefined;
let computed = 0;
let reused = 0;

/** Reads the facts kept by earlier runs from `diskCache` and keeps what this run adds to them (saveQueryFacts). */
export function useQueryFactsCache(diskCache: DiskCache | undefined): void {
  cache = diskCache;
  const stored = diskCache?.read(CACHE_ENTRY) as { format?: unknown; entries?: unknown } | undefined;
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
  const counts = { parsed: computed, reused };
  computed = 0;
  reused = 0;
  if (counts.parsed > 0 && cache) {
    const entries = [...FACTS];
    cache.write(CACHE_ENTRY, { format: CACHE_FORMAT, entries: entries.slice(Math.max(0, entries.length - CACHE_LIMIT)) });
  }
  return counts;
}

function isFacts(value: unknown): value is QueryFacts {
  const v = value as QueryFacts | undefined;
  if (!v || typeof v !== 'object' || !Array.isArray(v.fields)) return false;
  if (v.problem !== undefined && (typeof v.problem.offset !== 'number' || typeof v.problem.message !== 'string')) return false;
  return v.fields.every((f) => f && typeof f.name === 'string' && typeof f.offset === 'number');
}

function factsOf(language: QueryLanguageName, text: string): QueryFacts | undefined {
  const key = `${language}\u0000${text}`;
  let facts = FACTS.get(key);
  if (facts) {
    FACTS.delete(key);
    reused++;
  } else {
    // Parsed without keeping the tree: only `svcform test` needs trees (parseCached).
    const outcome = readyLanguage(language)?.parse(text);
    if (!outcome) return undefined; // not loaded (nobody preloaded) or not part of this build: not checked
    facts = outcome.ok
      ? { fields: outcome.query.fields.map(({ name, offset }) => ({ name, offset })) }
      : { problem: { offset: outcome.problem.offset, message: outcome.problem.message }, fields: [] };
    computed++;
  }
  FACTS.set(key, facts);
  return facts;
}

let ecsNames: string[] | undefined;
/** "Did you mean" answers, per project field set, per unknown name and the rule's required fields (many rules repeat a typo). */
const SUGGESTIONS = new WeakMap<ReadonlySet<string>, Map<string, string | undefined>>();

function suggestion(name: string, required: Set<string>, project: ReadonlySet<string>): string | undefined {
  let cache = SUGGESTIONS.get(project);
  if (!cache) SUGGESTIONS.set(project, (cache = new Map()));
  const key = `${name}\u0000${[...required].join('\u0000')}`;
  if (!cache.has(key)) {
    ecsNames ??= [...ecsFieldTypes().keys()];
    cache.set(key, closest(name, [...required, ...project, ...ecsNames]));
  }
  return cache.get(key);
}

const NO_FIELDS: ReadonlySet<string> = new Set();

export function checkRuleQueries(res: Resource, context: CheckContext | undefined): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const checkFields = res.checks?.queryFields !== false;
  const required = new Set<string>((Array.isArray(res.spec.required_fields) ? res.spec.required_fields : []).map((f: { name?: unknown }) => String(f?.name)));
  const project = context?.projectFields ?? NO_FIELDS;
  const ecs = ecsFieldTypes();
  for (const q of ruleQueries(res.spec)) {
    const facts = factsOf(q.language, q.text);
    if (!facts) continue;
    if (facts.problem) {
      issues.push({ path: q.path, at: { offset: facts.problem.offset, value: q.text }, message: `${q.label}: ${facts.problem.message} (${q.language})` });
      continue;
    }
    if (!checkFields) continue;
    const reported = new Set<string>();
    for (const use of facts.fields) {
      if (use.name.includes('*') || reported.has(use.name)) continue;
      if (required.has(use.name) || ecs.has(use.name) || project.has(use.name)) continue;
      reported.add(use.name);
      const near = suggestion(use.name, required, project);
      issues.push({
        path: q.path,
        at: { offset: use.offset, value: q.text },
        severity: context?.strict ? 'error' : 'warning',
        message: `${q.label}: field ${quotedText(use.name)} is not in required_fields, ECS or the project's field lists${near ? ` (did you mean ${near}?)` : ''}; declare it, or set metadata.checks.queryFields: false`,
      });
    }
  }
  return issues;
}
