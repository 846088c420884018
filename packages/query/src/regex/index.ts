import { parseRegex, type RegexOptions, type RegexProblem } from './parse.js';
import { TermFactory, type Term } from './terms.js';

/**
 * Lucene regular expressions (parse.ts) compiled to a matcher that reads a value once, character
 * by character, through a DFA built as it goes (terms.ts): time linear in the value, whatever the
 * pattern (`(a+)+b` over forty `a`s takes forty steps). The whole value must match, as on the
 * server. One module for eql's `regex`/`regex~`, qlang's RLIKE and query_string `/regex/` terms.
 */

export type { RegexOptions, RegexProblem } from './parse.js';

/** eql `regex` / `regex~`: the backend's regexp query flags, ALL with the complement. */
export const EQL_REGEX: RegexOptions = { complement: true, caseInsensitive: false };
export const EQL_REGEX_INSENSITIVE: RegexOptions = { complement: true, caseInsensitive: true };
/** qlang `RLIKE`: RegExp.ALL | DEPRECATED_COMPLEMENT (esql-core RLikePattern), so `~` is the complement as in eql. */
export const QLANG_RLIKE: RegexOptions = EQL_REGEX;
/** query_string `/regex/`: RegExp.ALL, which no longer holds the complement (`~` is literal). */
export const QUERY_STRING_REGEX: RegexOptions = { complement: false, caseInsensitive: false };

export interface CompiledRegex {
  test(text: string): boolean;
  /** Derivatives computed so far: the work matching took, bounded by the DFA's size, not by the values. */
  readonly derivations: number;
}

/** Terms kept per pattern before its DFA is rebuilt from the pattern: bounds the memory of a long run. */
const TERM_LIMIT = 50_000;

class Matcher implements CompiledRegex {
  derivations = 0;
  private terms!: TermFactory;
  private start!: Term;
  private transitions!: Map<Term, Map<number, Term>>;

  constructor(
    private readonly source: string,
    private readonly options: RegexOptions,
  ) {
    this.reset();
  }

  private reset(): void {
    this.terms = new TermFactory();
    this.start = parseRegex(this.source, this.options, this.terms) as Term;
    this.transitions = new Map();
  }

  test(text: string): boolean {
    if (this.terms.size > TERM_LIMIT) this.reset();
    let term = this.start;
    for (let i = 0; i < text.length; i++) {
      if (term === this.terms.nothing) return false;
      if (term === this.terms.anything) return true;
      const c = text.codePointAt(i)!;
      if (c > 0xffff) i++;
      let known = this.transitions.get(term);
      if (!known) this.transitions.set(term, (known = new Map()));
      let next = known.get(c);
      if (!next) {
        next = this.terms.derive(term, c);
        known.set(c, next);
        this.derivations++;
      }
      term = next;
    }
    return term.nullable;
  }
}

/** The matcher of a pattern, or where and why the backend refuses the pattern. */
export function compileRegex(source: string, options: RegexOptions): CompiledRegex | RegexProblem {
  const problem = parseRegex(source, options, new TermFactory());
  if ('message' in problem) return problem;
  return new Matcher(source, options);
}

export function isRegexProblem(value: CompiledRegex | RegexProblem): value is RegexProblem {
  return 'message' in value;
}
