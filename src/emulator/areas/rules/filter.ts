import type { StoredRule } from './state.js';

/**
 * The KQL subset _find and _bulk_action take on `alert.attributes.*` (wire-facts 2.1):
 * `field:value`, `field:"quoted value"`, `field:(a OR b)`, `field:*`, wildcards in unquoted
 * values, AND / OR / NOT and parentheses. Parsed once, evaluated per rule.
 */

export type RulePredicate = (rule: StoredRule) => boolean;

export class FilterError extends Error {}

type Token = { kind: 'lparen' | 'rparen' | 'colon' | 'and' | 'or' | 'not' } | { kind: 'word'; text: string; quoted: boolean };

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')' || c === ':') {
      tokens.push({ kind: c === '(' ? 'lparen' : c === ')' ? 'rparen' : 'colon' });
      i++;
    } else if (c === '"') {
      let text = '';
      i++;
      while (i < input.length && input[i] !== '"') {
        if (input[i] === '\\' && i + 1 < input.length) i++;
        text += input[i++];
      }
      if (i >= input.length) throw new FilterError('unterminated quoted value');
      i++;
      tokens.push({ kind: 'word', text, quoted: true });
    } else {
      let text = '';
      while (i < input.length && !/[\s():"]/.test(input[i])) {
        if (input[i] === '\\' && i + 1 < input.length) i++;
        text += input[i++];
      }
      const lower = text.toLowerCase();
      if (lower === 'and' || lower === 'or' || lower === 'not') tokens.push({ kind: lower });
      else tokens.push({ kind: 'word', text, quoted: false });
    }
  }
  return tokens;
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

function glob(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i');
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

/** `name` is a text field: a quoted value is a phrase, an unquoted one a word (or a wildcard word). */
const textName: FieldSpec = {
  match(rule, term) {
    const have = words(String(rule.name ?? ''));
    if (!term.quoted && term.text === '*') return true;
    if (!term.quoted && term.text.includes('*')) {
      const re = glob(term.text);
      return have.some((w) => re.test(w));
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
};

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): RulePredicate {
    const expr = this.or();
    if (this.pos < this.tokens.length) throw new FilterError(`unexpected ${this.describe(this.tokens[this.pos])}`);
    return expr;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private describe(t: Token | undefined): string {
    if (!t) return 'end of input';
    return t.kind === 'word' ? `"${t.text}"` : t.kind === 'lparen' ? '"("' : t.kind === 'rparen' ? '")"' : t.kind === 'colon' ? '":"' : t.kind.toUpperCase();
  }

  private expect(kind: Token['kind']): Token {
    const t = this.tokens[this.pos];
    if (!t || t.kind !== kind) throw new FilterError(`expected ${kind} but found ${this.describe(t)}`);
    this.pos++;
    return t;
  }

  private or(): RulePredicate {
    const parts = [this.and()];
    while (this.peek()?.kind === 'or') {
      this.pos++;
      parts.push(this.and());
    }
    return parts.length === 1 ? parts[0] : (r) => parts.some((p) => p(r));
  }

  private and(): RulePredicate {
    const parts = [this.not()];
    while (this.peek()?.kind === 'and') {
      this.pos++;
      parts.push(this.not());
    }
    return parts.length === 1 ? parts[0] : (r) => parts.every((p) => p(r));
  }

  private not(): RulePredicate {
    if (this.peek()?.kind === 'not') {
      this.pos++;
      const inner = this.not();
      return (r) => !inner(r);
    }
    return this.primary();
  }

  private primary(): RulePredicate {
    const t = this.peek();
    if (t?.kind === 'lparen') {
      this.pos++;
      const inner = this.or();
      this.expect('rparen');
      return inner;
    }
    const field = this.expect('word') as Extract<Token, { kind: 'word' }>;
    const spec = Object.prototype.hasOwnProperty.call(FIELDS, field.text) ? FIELDS[field.text] : undefined;
    if (!spec) throw new FilterError(`This key '${field.text}' does NOT exist in alert saved object index patterns`);
    this.expect('colon');
    const matcher = this.valueExpr();
    return (rule) => matcher(rule, spec);
  }

  /** A value, or a parenthesised boolean combination of values, for one field. */
  private valueExpr(): (rule: StoredRule, spec: FieldSpec) => boolean {
    const t = this.peek();
    if (t?.kind === 'lparen') {
      this.pos++;
      const inner = this.valueOr();
      this.expect('rparen');
      return (rule, spec) => inner((term) => spec.match(rule, term));
    }
    const word = this.expect('word') as Extract<Token, { kind: 'word' }>;
    const term = { text: word.text, quoted: word.quoted };
    return (rule, spec) => spec.match(rule, term);
  }

  private valueOr(): (m: ValueMatcher) => boolean {
    const parts = [this.valueAnd()];
    while (this.peek()?.kind === 'or') {
      this.pos++;
      parts.push(this.valueAnd());
    }
    return (m) => parts.some((p) => p(m));
  }

  private valueAnd(): (m: ValueMatcher) => boolean {
    const parts = [this.valueNot()];
    while (this.peek()?.kind === 'and') {
      this.pos++;
      parts.push(this.valueNot());
    }
    return (m) => parts.every((p) => p(m));
  }

  private valueNot(): (m: ValueMatcher) => boolean {
    const t = this.peek();
    if (t?.kind === 'not') {
      this.pos++;
      const inner = this.valueNot();
      return (m) => !inner(m);
    }
    if (t?.kind === 'lparen') {
      this.pos++;
      const inner = this.valueOr();
      this.expect('rparen');
      return inner;
    }
    const word = this.expect('word') as Extract<Token, { kind: 'word' }>;
    const term = { text: word.text, quoted: word.quoted };
    return (m) => m(term);
  }
}

/** A predicate for a KQL filter; an empty filter matches every rule. Throws FilterError on bad input. */
export function parseRuleFilter(filter: string | null | undefined): RulePredicate {
  if (!filter || filter.trim() === '') return () => true;
  return new Parser(tokenize(filter)).parse();
}
