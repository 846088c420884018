/**
 * lucene: the query-string syntax (the server's query_string query, default operator OR) as rules
 * use it: `field:value`, AND/OR/NOT, `&&`/`||`/`!`, `+`/`-`, quoted phrases, wildcards `?` and
 * `*`, fuzzy `term~1`, ranges `[a TO b]`, `{a TO b}` (mixed brackets too, `*` open) and
 * `field:>x`, `_exists_:field`, `field:(a b)` groups, `/regex/`, boosts (ignored) and backslash
 * escapes. Parsed by lucene.peggy.
 *
 * Offline matching (run): within one level of a query the classic parser's rules decide each
 * clause's role: `+` or AND makes a clause required (AND also the one before it), `-`/`!`/NOT
 * prohibited, anything else optional. A document matches when every required clause matches, no
 * prohibited one does, and, if there is no required clause, at least one optional clause does; a
 * level with only prohibited clauses matches every document they leave (as the server adds
 * match-all). So `a OR NOT b` is `a -b`, as the server reads it. Values compare as keyword fields
 * (src/query/keyword-match.ts): whole value, case-sensitive; a phrase matches a value exactly; a
 * regex is Lucene's RegExp syntax (src/query/regex: `\-` and `"..."` literal, `<1-10>`, `&`, `@`, `#`;
 * `~` is a plain character in query_string) and must match the whole value, in linear time. A
 * clause without a field matches any field.
 */
import { parse as parseLucene } from './lucene.generated.js';
import type { LuceneClause, LuceneField, LuceneNode } from './ast.js';
import { treeOrProblem } from '../syntax-error.js';
import { fuzzyTest, rangeTest, regexTest, termTest, type ValueTest } from '../keyword-match.js';
import { anyFieldValue } from '../doc-fields.js';
import { compileRegex, isRegexProblem, QUERY_STRING_REGEX, type CompiledRegex } from '../regex/index.js';
import type { CompiledQuery, EventDoc, FieldUse, ParseOutcome, QueryLanguage, QueryProblem } from '../types.js';

type DocTest = (doc: EventDoc) => boolean;

function fieldsOf(node: LuceneNode, out: FieldUse[]): void {
  if (node.type === 'all') return;
  if (node.type === 'bool') {
    for (const c of node.clauses) fieldsOf(c.clause, out);
    return;
  }
  if (node.field) out.push({ name: node.field.name, offset: node.field.offset });
  if (node.type === 'group') fieldsOf(node.query, out);
}

/**
 * Each regex compiled once, at parse time, with Lucene's syntax as query_string reads it
 * (src/query/regex): one the backend refuses is a problem at its place in the query.
 */
function compileRegexes(node: LuceneNode, out: Map<LuceneNode, CompiledRegex>): QueryProblem | undefined {
  if (node.type === 'bool') {
    for (const c of node.clauses) {
      const problem = compileRegexes(c.clause, out);
      if (problem) return problem;
    }
  } else if (node.type === 'group') return compileRegexes(node.query, out);
  else if (node.type === 'regex') {
    const compiled = compileRegex(node.source, QUERY_STRING_REGEX);
    // The source starts after the opening slash.
    if (isRegexProblem(compiled)) return { offset: node.offset + 1 + compiled.index, length: compiled.length, message: `invalid regular expression: ${compiled.message}` };
    out.set(node, compiled);
  }
  return undefined;
}

function anyValue(field: LuceneField | null, test: ValueTest): DocTest {
  return anyFieldValue(field ? field.name : null, test);
}

/** The classic query parser's roles for one level's clauses (default operator OR). */
function roles(clauses: LuceneClause[]): Array<'MUST' | 'SHOULD' | 'MUST_NOT'> {
  const out: Array<'MUST' | 'SHOULD' | 'MUST_NOT'> = [];
  for (const c of clauses) {
    if (c.conj === 'AND' && out.length > 0 && out[out.length - 1] !== 'MUST_NOT') out[out.length - 1] = 'MUST';
    const prohibited = c.modifier === 'PROHIBITED';
    const required = c.modifier === 'REQUIRED' || (c.conj === 'AND' && !prohibited);
    out.push(prohibited ? 'MUST_NOT' : required ? 'MUST' : 'SHOULD');
  }
  return out;
}

function compile(node: LuceneNode, field: LuceneField | null, regexes: Map<LuceneNode, CompiledRegex>): DocTest {
  const on = (own: LuceneField | null) => own ?? field;
  switch (node.type) {
    case 'all':
      return () => true;
    case 'bool': {
      const parts = node.clauses.map((c) => compile(c.clause, field, regexes));
      const role = roles(node.clauses);
      const must = parts.filter((_, i) => role[i] === 'MUST');
      const should = parts.filter((_, i) => role[i] === 'SHOULD');
      const mustNot = parts.filter((_, i) => role[i] === 'MUST_NOT');
      return (doc) => {
        if (mustNot.some((t) => t(doc))) return false;
        if (!must.every((t) => t(doc))) return false;
        return must.length > 0 || should.length === 0 || should.some((t) => t(doc));
      };
    }
    case 'group':
      return compile(node.query, on(node.field), regexes);
    case 'exists':
      return anyValue(node.field, (v) => v !== null && v !== undefined);
    case 'term':
      return anyValue(on(node.field), node.fuzzy !== null ? fuzzyTest(node.text, node.fuzzy) : termTest(node.pieces));
    case 'phrase':
      return anyValue(on(node.field), termTest([node.text]));
    case 'regex':
      return anyValue(on(node.field), regexTest(regexes.get(node)!));
    case 'range':
      return anyValue(on(node.field), rangeTest(node.op, node.bound));
    case 'between': {
      const lower = node.lower === '*' ? () => true : rangeTest(node.includeLower ? '>=' : '>', node.lower);
      const upper = node.upper === '*' ? () => true : rangeTest(node.includeUpper ? '<=' : '<', node.upper);
      return anyValue(on(node.field), (v) => lower(v) && upper(v));
    }
  }
}

function parse(text: string): ParseOutcome {
  const parsed = treeOrProblem<LuceneNode>(parseLucene, text);
  if ('problem' in parsed) return { ok: false, problem: parsed.problem };
  const tree = parsed.tree;
  const regexes = new Map<LuceneNode, CompiledRegex>();
  const problem = compileRegexes(tree, regexes);
  if (problem) return { ok: false, problem };
  const fields: FieldUse[] = [];
  fieldsOf(tree, fields);
  let test: DocTest | undefined;
  const query: CompiledQuery = {
    language: 'lucene',
    fields,
    run(events) {
      test ??= compile(tree, null, regexes);
      return events.filter((e) => test!(e)).map((e) => ({ events: [e] }));
    },
  };
  return { ok: true, query };
}

export const language: QueryLanguage = { name: 'lucene', parse };
