import { caseForms } from './case-forms.js';
import { complementRanges, MAX_CODE_POINT, normalizeRanges, type Term, type TermFactory } from './terms.js';

/**
 * A reader of Lucene's RegExp syntax (lucene/core .../util/automaton/RegExp.java), as the search
 * backend reads regexp queries, eql's `regex` and query_string `/regex/` terms. Rules it keeps
 * that JavaScript's RegExp does not:
 *
 * - a backslash escapes any character that is not a letter (`\-`, `\_`, `\"`, `\:`, `\=`); before
 *   a letter only `\d \D \s \S \w \W` are known (`\n`, `\t` and the rest are refused);
 * - `"..."` is a literal string, `#` the empty language, `@` any string, `<1-10>` a decimal interval
 *   (equal-length bounds mean zero-padded numbers of that width), `&` intersection and, where the
 *   caller enables it (eql), `~` complement; `<name>` names an automaton, which the server has none of;
 * - there are no anchors, lazy quantifiers or look-arounds: the pattern matches the whole value;
 * - reserved characters where no operator can start are literal (`*a`, `]`, `{`, `|a`);
 * - in a class, `-` makes a range unless it comes right after an escaped character.
 *
 * Case-insensitive reading (eql's `regex~`) folds single characters and quoted strings, not ranges.
 */

export interface RegexOptions {
  /** `~` is the complement (eql); otherwise a literal `~` (query_string). */
  complement: boolean;
  caseInsensitive: boolean;
}

/** Where and why the backend refuses a pattern: `index` counts UTF-16 code units into the pattern. */
export interface RegexProblem {
  index: number;
  length: number;
  message: string;
}

class Refusal extends Error {
  constructor(readonly problem: RegexProblem) {
    super(problem.message);
  }
}

const LETTERS = /[A-Za-z]/;
const JAVA_INT_MAX = 2_147_483_647;

const PREDEFINED: Record<string, Array<[number, number]>> = {
  d: [[48, 57]],
  s: [[9, 10], [13, 13], [32, 32]],
  w: [[48, 57], [65, 90], [95, 95], [97, 122]],
};

export function parseRegex(source: string, options: RegexOptions, terms: TermFactory): Term | RegexProblem {
  const reader = new Reader(source, options, terms);
  try {
    return reader.whole();
  } catch (err) {
    if (err instanceof Refusal) return err.problem;
    // Groups nested thousands deep exhaust the stack here as in the backend's recursive reader.
    if (err instanceof RangeError) return { index: 0, length: 1, message: 'the pattern is nested too deeply to read' };
    throw err;
  }
}

class Reader {
  private pos = 0;

  constructor(
    private readonly src: string,
    private readonly options: RegexOptions,
    private readonly terms: TermFactory,
  ) {}

  whole(): Term {
    if (this.src === '') return this.terms.empty;
    const term = this.union();
    // Only a ")" stops the reading early.
    if (this.more()) this.refuse(this.pos, 'unmatched ")"');
    return term;
  }

  private refuse(index: number, message: string, length = 1): never {
    throw new Refusal({ index, length, message });
  }

  private more(): boolean {
    return this.pos < this.src.length;
  }

  private current(): string {
    return String.fromCodePoint(this.src.codePointAt(this.pos)!);
  }

  private peek(chars: string): boolean {
    return this.more() && chars.includes(this.current());
  }

  private match(char: string): boolean {
    if (!this.src.startsWith(char, this.pos)) return false;
    this.pos += char.length;
    return true;
  }

  private next(): number {
    if (!this.more()) this.refuse(Math.max(0, this.src.length - 1), 'the pattern ends where a character was expected');
    const c = this.src.codePointAt(this.pos)!;
    this.pos += c > 0xffff ? 2 : 1;
    return c;
  }

  private union(): Term {
    let term = this.intersection();
    while (this.match('|')) term = this.terms.or([term, this.intersection()]);
    return term;
  }

  private intersection(): Term {
    let term = this.concatenation();
    while (this.match('&')) term = this.terms.and([term, this.concatenation()]);
    return term;
  }

  private concatenation(): Term {
    const parts = [this.repeat()];
    while (this.more() && !this.peek(')|&')) parts.push(this.repeat());
    return parts.reduceRight((rest, part) => this.terms.cat(part, rest), this.terms.empty);
  }

  private repeat(): Term {
    let term = this.complement();
    while (this.peek('?*+{')) {
      const at = this.pos;
      if (this.match('?')) term = this.terms.repeat(term, 0, 1);
      else if (this.match('*')) term = this.terms.star(term);
      else if (this.match('+')) term = this.terms.repeat(term, 1, -1);
      else {
        this.match('{');
        const min = this.integer();
        if (min === undefined) this.refuse(this.pos, 'expected a number after "{"');
        let max = min;
        if (this.match(',')) max = this.integer() ?? -1;
        if (!this.match('}')) this.refuse(this.pos, 'expected "}" to end the repetition');
        if (max !== -1 && min > max) this.refuse(at, `invalid repetition {${min},${max}}: the minimum is above the maximum`, this.pos - at);
        term = this.terms.repeat(term, min, max);
      }
    }
    return term;
  }

  private integer(): number | undefined {
    const start = this.pos;
    while (this.peek('0123456789')) this.pos++;
    if (start === this.pos) return undefined;
    const value = Number(this.src.slice(start, this.pos));
    if (value > JAVA_INT_MAX) this.refuse(start, 'the number is too large', this.pos - start);
    return value;
  }

  private complement(): Term {
    if (this.options.complement && this.match('~')) return this.terms.not(this.complement());
    return this.charClass();
  }

  private charClass(): Term {
    const open = this.pos;
    if (!this.match('[')) return this.simple();
    const negated = this.match('^');
    if (!this.more()) this.refuse(open, '"[" is never closed');
    const ranges = this.classRanges();
    if (!this.match(']')) this.refuse(open, '"[" is never closed');
    return this.terms.set(negated ? complementRanges(ranges) : ranges);
  }

  /** A class's members; a class of one character is a character (case-folded when asked). */
  private classRanges(): number[] {
    const pairs: Array<[number, number]> = [];
    do {
      const at = this.pos;
      if (this.match('\\')) {
        if (this.peek('\\') || LETTERS.test(this.current())) pairs.push(...this.predefined(at));
        else {
          const c = this.next();
          pairs.push([c, c]);
        }
      } else {
        const c = this.charExp();
        if (this.match('-')) {
          const to = this.charExp();
          if (c > to) this.refuse(at, `invalid range ${this.src.slice(at, this.pos)}: its start is above its end`, this.pos - at);
          pairs.push([c, to]);
        } else if (this.options.caseInsensitive) for (const form of caseForms(c)) pairs.push([form, form]);
        else pairs.push([c, c]);
      }
    } while (this.more() && !this.peek(']'));
    if (pairs.length === 1 && pairs[0]![0] === pairs[0]![1]) return this.charRanges(pairs[0]![0]);
    return normalizeRanges(pairs);
  }

  /** After a backslash: `\\`, a predefined class, or a refused letter. */
  private predefined(backslash: number): Array<[number, number]> {
    const letter = String.fromCodePoint(this.next());
    if (letter === '\\') return [[92, 92]];
    const lower = letter.toLowerCase();
    const known = PREDEFINED[lower];
    if (!known) this.refuse(backslash, `unknown escape "\\${letter}": before a letter only \\d \\D \\s \\S \\w \\W are known (a backslash before any other character makes it literal)`, 2);
    if (lower === letter) return known;
    const outside = complementRanges(normalizeRanges(known));
    const pairs: Array<[number, number]> = [];
    for (let i = 0; i < outside.length; i += 2) pairs.push([outside[i]!, outside[i + 1]!]);
    return pairs;
  }

  private charExp(): number {
    this.match('\\');
    return this.next();
  }

  private charRanges(c: number): number[] {
    if (!this.options.caseInsensitive) return [c, c];
    return normalizeRanges(caseForms(c).map((form) => [form, form]));
  }

  private char(c: number): Term {
    return this.terms.set(this.charRanges(c));
  }

  private simple(): Term {
    const at = this.pos;
    if (this.match('.')) return this.terms.set([0, MAX_CODE_POINT]);
    if (this.match('#')) return this.terms.nothing;
    if (this.match('@')) return this.terms.anything;
    if (this.match('"')) {
      const parts: Term[] = [];
      while (this.more() && !this.peek('"')) parts.push(this.char(this.next()));
      if (!this.match('"')) this.refuse(at, 'the quoted string is never closed: a double quote in a pattern starts a literal string (write \\" for the character)');
      return parts.reduceRight((rest, part) => this.terms.cat(part, rest), this.terms.empty);
    }
    if (this.match('(')) {
      if (this.match(')')) return this.terms.empty;
      if (!this.more()) this.refuse(at, '"(" is never closed');
      const inner = this.union();
      if (!this.match(')')) this.refuse(at, '"(" is never closed');
      return inner;
    }
    if (this.match('<')) return this.interval(at);
    if (this.match('\\')) {
      if (this.more() && (this.peek('\\') || LETTERS.test(this.current()))) return this.terms.set(normalizeRanges(this.predefined(at)));
      if (!this.more()) this.refuse(at, 'the pattern ends with a lone backslash');
    }
    return this.char(this.charExp());
  }

  private interval(open: number): Term {
    const start = this.pos;
    while (this.more() && !this.peek('>')) this.next();
    if (!this.match('>')) this.refuse(open, '"<" is never closed (write \\< for the character)');
    const body = this.src.slice(start, this.pos - 1);
    const dash = body.indexOf('-');
    if (dash === -1) this.refuse(open, `"<${body}>" names an automaton, and the server has none (write \\< for the character, or <min-max> for a numeric range)`, this.pos - open);
    const [low, high] = [body.slice(0, dash), body.slice(dash + 1)];
    const number = (text: string) => (/^\+?[0-9]+$/.test(text) && Number(text) <= JAVA_INT_MAX ? Number(text) : undefined);
    let [min, max] = [number(low), number(high)];
    if (min === undefined || max === undefined) this.refuse(open, `invalid numeric range "<${body}>" (write <min-max>, e.g. <1-10>)`, this.pos - open);
    if (min > max) [min, max] = [max, min];
    return this.terms.interval({ min, max, digits: low.length === high.length ? low.length : 0 });
  }
}
