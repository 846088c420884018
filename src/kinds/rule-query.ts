import type { CheckContext, CheckIssue, DocPath, Resource } from '../manifest/types.js';
import { factsOf } from './query-facts.js';
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
 * What a parser cannot judge offline (an unknown function of a newer server) is a warning, never
 * an error; `metadata.checks.querySyntax: false` drops a rule's syntax errors and such warnings,
 * for a query the server accepts and svcform's grammar does not yet.
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
  const checkSyntax = res.checks?.querySyntax !== false;
  const required = new Set<string>((Array.isArray(res.spec.required_fields) ? res.spec.required_fields : []).map((f: { name?: unknown }) => String(f?.name)));
  const project = context?.projectFields ?? NO_FIELDS;
  const ecs = ecsFieldTypes();
  for (const q of ruleQueries(res.spec)) {
    const facts = factsOf(q.language, q.text);
    if (!facts) continue;
    if (facts.problem) {
      if (checkSyntax) issues.push({ path: q.path, at: { offset: facts.problem.offset, value: q.text }, message: `${q.label}: ${facts.problem.message} (${q.language})` });
      continue;
    }
    if (checkSyntax) {
      for (const note of facts.notes ?? []) {
        issues.push({
          path: q.path,
          at: { offset: note.offset, value: q.text },
          severity: 'warning',
          message: `${q.label}: not checked offline: ${note.message} (${q.language}); the server decides, or set metadata.checks.querySyntax: false`,
        });
      }
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
