import type { StoredRule } from './state.js';
import { starPattern, wildcardMatcher, type TextTest } from '@svcform/query/regex/wildcard.js';

/**
 * The KQL subset _find and _bulk_action take on `alert.attributes.*` (wire-facts 2.1):
 * `field:value`, `field:"quoted value"`, `field:(a OR b)`, `field:*`, wildcards and spaces in
 * unquoted values, AND / OR / NOT and parentheses. Parsed once, evaluated per rule.
 */

export type RulePredicate = (rule: StoredRule) => boolean;

export class FilterError extends Error {}

type Token = { kind: 'lparen' | 'rparen' | 'colon' | 'and' | 'or' | 'not' } | { kind: 'word'; text: string; quoted: boolean };

/** Characters that end an unquoted KQL value (kbn-es-query kuery grammar SpecialCharacter). */
const SPECIAL = new Set(['\\', '(', ')', ':', '<', '>', '"', '{', '}']);

/**
 * Reads tokens on demand, because KQL reads a value differently from the rest: after `field:` an
 * unquoted value runs on across spaces, up to a special character or a spaced `or`/`and` or a
 * `not `, so `name:Memory Threat` is the one value "Memory Threat" (the kuery grammar's
 * UnquotedLiteral, which does not stop at whitespace).
 */
class Lexer {
  private pos = 0;
  private peeked: Token | undefined | null = null;

  constructor(private readonly input: string) {}

  peek(): Token | undefined {
    if (this.peeked === null) this.peeked = this.read();
    return this.peeked;
  }

  next(): Token | undefined {
    const t = this.peek();
    this.peeked = null;
    return t;
  }

  /** A value after a colon or inside a value group: a quoted string, `(`, `not`, or an unquoted literal. */
  value(): Token | undefined {
    if (this.peeked !== null) return this.next();
    this.skipSpaces();
    const c = this.input[this.pos];
    if (c === undefined || c === '(' || c === ')' || c === '"' || this.keywordAt(this.pos)) return this.next();
    let text = '';
    while (this.pos < this.input.length) {
      const ch = this.input[this.pos];
      if (ch === '\\' && this.pos + 1 < this.input.length) {
        text += this.input[this.pos + 1];
        this.pos += 2;
        continue;
      }
      if (SPECIAL.has(ch)) break;
      if (/\s/.test(ch) && /^\s+(or|and)\s/i.test(this.input.slice(this.pos))) break;
      if (/\s/.test(ch) && /^\s+not\s/i.test(this.input.slice(this.pos))) break;
      text += ch;
      this.pos++;
    }
    return { kind: 'word', text: text.trim(), quoted: false };
  }

  private skipSpaces(): void {
    while (this.pos < this.input.length && /\s/.test(this.input[this.pos])) this.pos++;
  }

  private keywordAt(at: number): boolean {
    return /^not\s/i.test(this.input.slice(at));
  }

  private read(): Token | undefined {
    this.skipSpaces();
    const input = this.input;
    if (this.pos >= input.length) return undefined;
    const c = input[this.pos];
    if (c === '(' || c === ')' || c === ':') {
      this.pos++;
      return { kind: c === '(' ? 'lparen' : c === ')' ? 'rparen' : 'colon' };
    }
    if (c === '"') {
      let text = '';
      this.pos++;
      while (this.pos < input.length && input[this.pos] !== '"') {
        if (input[this.pos] === '\\' && this.pos + 1 < input.length) this.pos++;
        text += input[this.pos++];
      }
      if (this.pos >= input.length) throw new FilterError('unterminated quoted value');
      this.pos++;
      return { kind: 'word', text, quoted: true };
    }
    let text = '';
    while (this.pos < input.length && !/[\s():"]/.test(input[this.pos])) {
      if (input[this.pos] === '\\' && this.pos + 1 < input.length) this.pos++;
      text += input[this.pos++];
    }
    const lower = text.toLowerCase();
    if (lower === 'and' || lower === 'or' || lower === 'not') return { kind: lower };
    return { kind: 'word', text, quoted: false };
  }
}

interface ValueTerm {
  text: string;
  quoted: boolean;
}
type ValueMatcher = (term: ValueTerm) => boolean;

/** How one `alert.attributes.*` field of the rule saved object maps onto the API rule. */
interface FieldSpec {
  match(rule: StoredRule, term: ValueTerm): boolean;
}

/**
 * A wildcard pattern: case-sensitive on keyword fields (an ES wildcard query's case_insensitive
 * defaults to false), matched without backtracking, as the backend's automaton does.
 */
function glob(pattern: string, caseInsensitive = false): TextTest {
  return wildcardMatcher(starPattern(pattern), caseInsensitive);
}

function keyword(get: (r: StoredRule) => unknown): FieldSpec {
  return {
    match(rule, term) {
      const raw = get(rule);
      const values = (Array.isArray(raw) ? raw : [raw]).filter((v) => v !== undefined && v !== null).map(String);
      if (!term.quoted && term.text === '*') return values.length > 0;
      if (!term.quoted && term.text.includes('*')) {
        const re = glob(term.text);
        return values.some((v) => re.test(v));
      }
      return values.includes(term.text);
    },
  };
}

const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/**
 * `name` is a text field. A quoted value is a phrase. An unquoted one is a match query: any of its
 * words matches (KQL turns `name:Memory Threat` into a match on "Memory Threat", whose default
 * operator is OR), and a word with `*` matches as a wildcard.
 */
const textName: FieldSpec = {
  match(rule, term) {
    const have = words(String(rule.name ?? ''));
    if (!term.quoted) {
      if (term.text === '*') return true;
      return term.text.split(/\s+/).some((part) => {
        if (part.includes('*')) {
          // The text field's words are analysed (lower-cased), and so is the pattern.
          const re = glob(part, true);
          return have.some((w) => re.test(w));
        }
        return words(part).some((w) => have.includes(w));
      });
    }
    const want = words(term.text);
    if (want.length === 0) return false;
    for (let i = 0; i + want.length <= have.length; i++) if (want.every((w, j) => have[i + j] === w)) return true;
    return false;
  },
};

const FIELDS: Record<string, FieldSpec> = {
  'alert.attributes.name': textName,
  'alert.attributes.tags': keyword((r) => r.tags),
  'alert.attributes.enabled': keyword((r) => r.enabled),
  'alert.attributes.createdBy': keyword((r) => r.created_by),
  'alert.attributes.updatedBy': keyword((r) => r.updated_by),
  'alert.attributes.interval': keyword((r) => r.interval),
  'alert.attributes.schedule.interval': keyword((r) => r.interval),
  'alert.attributes.params.ruleId': keyword((r) => r.rule_id),
  'alert.attributes.params.type': keyword((r) => r.type),
  'alert.attributes.params.immutable': keyword((r) => r.immutable),
  'alert.attributes.params.severity': keyword((r) => r.severity),
  'alert.attributes.params.riskScore': keyword((r) => r.risk_score),
  'alert.attributes.params.index': keyword((r) => r.index),
  // The rule saved object keeps rule_source camel-cased under params (DR: lib/kibana export-rules filters on it).
  'alert.attributes.params.ruleSource.type': keyword((r) => r.rule_source?.type),
  'alert.attributes.params.ruleSource.isCustomized': keyword((r) => r.rule_source?.is_customized),
};

type Word = Extract<Token, { kind: 'word' }>;

class Parser {
  constructor(private readonly lexer: Lexer) {}

  parse(): RulePredicate {
    const expr = this.or();
    const rest = this.lexer.peek();
    if (rest) throw new FilterError(`unexpected ${this.describe(rest)}`);
    return expr;
  }

  private describe(t: Token | undefined): string {
    if (!t) return 'end of input';
    return t.kind === 'word' ? `"${t.text}"` : t.kind === 'lparen' ? '"("' : t.kind === 'rparen' ? '")"' : t.kind === 'colon' ? '":"' : t.kind.toUpperCase();
  }

  private expectToken(t: Token | undefined, kind: Token['kind']): Token {
    if (!t || t.kind !== kind) throw new FilterError(`expected ${kind} but found ${this.describe(t)}`);
    return t;
  }

  private expect(kind: Token['kind']): Token {
    return this.expectToken(this.lexer.next(), kind);
  }

  /** Takes the next token when it is of this kind. */
  private accept(kind: Token['kind']): boolean {
    if (this.lexer.peek()?.kind !== kind) return false;
    this.lexer.next();
    return true;
  }

  private or(): RulePredicate {
    const parts = [this.and()];
    while (this.accept('or')) parts.push(this.and());
    return parts.length === 1 ? parts[0] : (r) => parts.some((p) => p(r));
  }

  private and(): RulePredicate {
    const parts = [this.not()];
    while (this.accept('and')) parts.push(this.not());
    return parts.length === 1 ? parts[0] : (r) => parts.every((p) => p(r));
  }

  private not(): RulePredicate {
    if (this.accept('not')) {
      const inner = this.not();
      return (r) => !inner(r);
    }
    return this.primary();
  }

  private primary(): RulePredicate {
    if (this.accept('lparen')) {
      const inner = this.or();
      this.expect('rparen');
      return inner;
    }
    const field = this.expect('word') as Word;
    const spec = Object.prototype.hasOwnProperty.call(FIELDS, field.text) ? FIELDS[field.text] : undefined;
    if (!spec) throw new FilterError(`This key '${field.text}' does NOT exist in alert saved object index patterns`);
    this.expect('colon');
    const matcher = this.valueExpr();
    return (rule) => matcher(rule, spec);
  }

  /** The next value token; an unquoted value may hold spaces (see Lexer). */
  private valueToken(): Token {
    const t = this.lexer.value();
    if (t?.kind === 'word' && !t.quoted && t.text === '') throw new FilterError('expected a value');
    if (!t) throw new FilterError('expected a value but found end of input');
    return t;
  }

  /** A value, or a parenthesised boolean combination of values, for one field. */
  private valueExpr(): (rule: StoredRule, spec: FieldSpec) => boolean {
    const t = this.valueToken();
    if (t.kind === 'lparen') {
      const inner = this.valueOr();
      this.expect('rparen');
      return (rule, spec) => inner((term) => spec.match(rule, term));
    }
    const word = this.expectToken(t, 'word') as Word;
    const term = { text: word.text, quoted: word.quoted };
    return (rule, spec) => spec.match(rule, term);
  }

  private valueOr(): (m: ValueMatcher) => boolean {
    const parts = [this.valueAnd()];
    while (this.accept('or')) parts.push(this.valueAnd());
    return (m) => parts.some((p) => p(m));
  }

  private valueAnd(): (m: ValueMatcher) => boolean {
    const parts = [this.valueNot()];
    while (this.accept('and')) parts.push(this.valueNot());
    return (m) => parts.every((p) => p(m));
  }

  private valueNot(): (m: ValueMatcher) => boolean {
    const t = this.valueToken();
    if (t.kind === 'not') {
      const inner = this.valueNot();
      return (m) => !inner(m);
    }
    if (t.kind === 'lparen') {
      const inner = this.valueOr();
      this.expect('rparen');
      return inner;
    }
    const word = this.expectToken(t, 'word') as Word;
    const term = { text: word.text, quoted: word.quoted };
    return (m) => m(term);
  }
}

/** A predicate for a KQL filter; an empty filter matches every rule. Throws FilterError on bad input. */
export function parseRuleFilter(filter: string | null | undefined): RulePredicate {
  if (!filter || filter.trim() === '') return () => true;
  return new Parser(new Lexer(filter)).parse();
}
