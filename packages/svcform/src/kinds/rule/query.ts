import { checksOf, type CheckContext, type CheckIssue, type DocPath, type Resource } from '../../manifest/types.js';
import { factsOf } from './query-facts.js';
import { NearMissIndex } from '@svcform/query/suggest.js';
import { quotedText } from '../../manifest/short-text.js';
import { ecsKnownFields } from '@svcform/query/ecs-fields.js';
import { readyLanguage } from '@svcform/query/preload.js';
import type { ParseOutcome, QueryLanguageName } from '@svcform/query/types.js';

/**
 * Offline checks of a rule's queries: each is parsed in its language (an error points at its
 * place inside the YAML string), and the fields it names are checked against the rule's
 * required_fields, ECS (data/ecs-known-fields.txt) and the fields the project declares
 * (svcform.yaml `fields:`). A field that is none of these but a near miss of one (`proces.name`)
 * is a warning with a "did you mean"; any other is an integration's or the user's own and passes,
 * unless --strict asks for every field declared (then each unknown field is an error). `metadata.checks.queryFields: false` turns the
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
  /** False where the query searches alerts, not the rule's events: its fields are not checked. */
  namesEventFields?: false;
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
  // An action's alerts filter: KQL over the rule's alerts, which the rules client parses to build
  // its search and refuses when it does not parse (alerting add_generated_action_values.ts,
  // "Invalid KQL").
  if (Array.isArray(spec.actions)) {
    spec.actions.forEach((action: any, i: number) => {
      const kql = action?.alerts_filter?.query?.kql;
      if (typeof kql === 'string') out.push({ path: ['spec', 'actions', i, 'alerts_filter', 'query', 'kql'], label: `actions[${i}].alerts_filter.query.kql`, text: kql, language: 'kuery', namesEventFields: false });
    });
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
 * Near misses of ECS and project fields, per project field set, per unknown name: 10,000 rules
 * repeat a few hundred unknown names, and the rule's own required fields are checked aside.
 */
const NEAR_MISSES = new WeakMap<ReadonlySet<string>, { index: NearMissIndex; answers: Map<string, string | undefined> }>();

function nearMissOf(name: string, required: Set<string>, project: ReadonlySet<string>): string | undefined {
  let known = NEAR_MISSES.get(project);
  if (!known) NEAR_MISSES.set(project, (known = { index: new NearMissIndex([...ecsKnownFields().names, ...project]), answers: new Map() }));
  let near = known.answers.get(name);
  if (!known.answers.has(name)) known.answers.set(name, (near = known.index.nearest(name)));
  if (near === undefined && required.size > 0) near = new NearMissIndex(required).nearest(name);
  return near;
}

const NO_FIELDS: ReadonlySet<string> = new Set();

export function checkRuleQueries(res: Resource, context: CheckContext | undefined): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const checks = checksOf(res, context);
  const checkFields = checks.queryFields !== false;
  const checkSyntax = checks.querySyntax !== false;
  const required = new Set<string>((Array.isArray(res.spec.required_fields) ? res.spec.required_fields : []).map((f: { name?: unknown }) => String(f?.name)));
  const project = context?.projectFields ?? NO_FIELDS;
  const ecs = ecsKnownFields();
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
          // A newer server's function used in many rules is one line.
          group: `not-checked\u0000${q.language}\u0000${note.message}`,
        });
      }
    }
    if (!checkFields || q.namesEventFields === false) continue;
    const reported = new Set<string>();
    for (const use of facts.fields) {
      if (use.name.includes('*') || reported.has(use.name)) continue;
      if (required.has(use.name) || project.has(use.name) || ecs.has(use.name)) continue;
      reported.add(use.name);
      // Open world: a field outside ECS and the project's lists is most often an integration's
      // (aws.cloudtrail.*, okta.*, the endpoint's process.Ext.*), which svcform cannot know offline.
      // Only a near miss of a known field is a likely typo; --strict asks for every field declared.
      const near = nearMissOf(use.name, required, project);
      if (near === undefined && !context?.strict) continue;
      issues.push({
        path: q.path,
        at: { offset: use.offset, value: q.text },
        severity: context?.strict ? 'error' : 'warning',
        group: `query field ${use.name}`,
        message: near
          ? `${q.label}: field ${quotedText(use.name)} is not a known field; did you mean ${near}? (or declare it in required_fields or the project's field lists, or set metadata.checks.queryFields: false)`
          : `${q.label}: field ${quotedText(use.name)} is not in required_fields, ECS or the project's field lists; declare it, or set metadata.checks.queryFields: false`,
      });
    }
  }
  return issues;
}
