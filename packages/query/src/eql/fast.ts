import type { Query } from './ast.js';
import { afterBlanks, afterSeparation, at, BANG, blanks, char, commaSeparated, CLOSE_BRACKET, cursor, EQUALS, identifierEnd, integer, isIdentifierPart, isIdentifierStart, keyword, oneOrMoreAfterBlanks, OPEN_BRACKET, PIPE, separation, string, type Node } from './fast-words.js';
import { additive, expression } from './fast-expressions.js';

/**
 * A hand-written reader of eql.peggy's language, rule for rule in the grammar's order and with its
 * ordered-choice backtracking, that builds the same tree without the generated parser's
 * bookkeeping of expectations for error messages.
 *
 * It only ever answers for text the grammar accepts: where it cannot read the text, or where the
 * grammar raises an error of its own (a string left open), it answers undefined, and the generated
 * parser reads the text again and says what is wrong. So a message always comes from the grammar.
 * test/query/eql-fast.test.ts holds it to the generated parser's trees.
 *
 * The queries are read here, their expressions in fast-expressions.ts, and words (blanks,
 * keywords, names, strings, numbers) in fast-words.ts, which also holds the shared cursor.
 *
 * Why: the generated parser's first pass over the realistic rules' 826 eql queries took 269 ms in a
 * fresh process, most of it before V8 had optimized its thousands of lines; the reader's took 76 ms
 * (`npm run bench:queries`, medians of 7 processes).
 */

// ---- queries ---------------------------------------------------------------------------------

function query(): Node | undefined {
  return sequenceQuery() ?? sampleQuery() ?? eventQuery();
}

function eventQuery(): Node | undefined {
  const start = cursor.pos;
  const category = eventCategory();
  if (category && separation() && keyword('where')) {
    blanks();
    const condition = expression();
    if (condition) return { kind: 'event', category, condition, offset: start };
  }
  cursor.pos = start;
  return undefined;
}

function eventCategory(): Node | undefined {
  const start = cursor.pos;
  if (keyword('any')) return { name: 'any', any: true, offset: start };
  const end = identifierEnd(cursor.pos);
  if (end >= 0) {
    cursor.pos = end;
    return { name: cursor.src.slice(start, end), offset: start };
  }
  const s = string();
  return s && { name: s.value, offset: s.offset };
}

function sequenceQuery(): Node | undefined {
  const start = cursor.pos;
  if (!keyword('sequence')) return undefined;
  const before = afterSeparation(joinKeys);
  const maxspan = afterSeparation(maxspanClause);
  const after = afterSeparation(joinKeys);
  const steps = oneOrMoreAfterBlanks(sequenceStep);
  if (!steps) {
    cursor.pos = start;
    return undefined;
  }
  const until = afterBlanks(untilStep);
  return { kind: 'sequence', by: before ?? after ?? [], misplacedBy: after !== null ? after[0].offset : null, maxspan, steps, until, offset: start };
}

function untilStep(): Node | undefined {
  const start = cursor.pos;
  if (keyword('until')) {
    blanks();
    const found = step();
    if (found) return found;
  }
  cursor.pos = start;
  return undefined;
}

function sampleQuery(): Node | undefined {
  const start = cursor.pos;
  if (!keyword('sample')) return undefined;
  const by = afterSeparation(joinKeys);
  const steps = oneOrMoreAfterBlanks(step);
  if (!steps) {
    cursor.pos = start;
    return undefined;
  }
  return { kind: 'sample', by: by ?? [], steps, offset: start };
}

function sequenceStep(): Node | undefined {
  const start = cursor.pos;
  if (char(BANG)) {
    blanks();
    const found = step();
    if (found) return { ...found, missing: true };
    cursor.pos = start;
  }
  return step();
}

function step(): Node | undefined {
  const start = cursor.pos;
  if (char(OPEN_BRACKET)) {
    blanks();
    const inner = eventQuery();
    if (inner) {
      blanks();
      if (char(CLOSE_BRACKET)) {
        const by = afterBlanks(joinKeys);
        const runs = afterBlanks(runsClause);
        return { query: inner, by: by ?? [], runs, missing: false, offset: start };
      }
    }
  }
  cursor.pos = start;
  return undefined;
}

/** `WITH _ <setting> _ "=" _ @Integer`: the integer, or undefined with cursor.pos unchanged. */
function withSetting(setting: 'runs' | 'maxspan'): { value: number; offset: number } | undefined {
  const start = cursor.pos;
  if (keyword('with')) {
    blanks();
    if (keyword(setting)) {
      blanks();
      if (char(EQUALS)) {
        blanks();
        const found = integer();
        if (found) return found;
      }
    }
  }
  cursor.pos = start;
  return undefined;
}

/** `WITH _ RUNS _ "=" _ @Integer` */
function runsClause(): Node | undefined {
  return withSetting('runs');
}

/** `BY _ Additive (_ "," _ @Additive)*` */
function joinKeys(): Node[] | undefined {
  const start = cursor.pos;
  if (!keyword('by')) return undefined;
  blanks();
  const head = additive();
  if (!head) {
    cursor.pos = start;
    return undefined;
  }
  return [head, ...commaSeparated(additive)];
}

/** `WITH _ MAXSPAN _ "=" _ TimeSpan`: an integer, blanks and a unit (letters, possibly none). */
function maxspanClause(): Node | undefined {
  const amount = withSetting('maxspan');
  if (!amount) return undefined;
  blanks();
  const unitStart = cursor.pos;
  if (isIdentifierStart(at(cursor.pos))) cursor.pos++;
  while (isIdentifierPart(at(cursor.pos))) cursor.pos++;
  return { amount: amount.value, unit: cursor.src.slice(unitStart, cursor.pos), offset: amount.offset };
}

function pipe(): Node | undefined {
  const start = cursor.pos;
  if (char(PIPE)) {
    blanks();
    const nameAt = cursor.pos;
    const end = identifierEnd(cursor.pos);
    if (end >= 0) {
      cursor.pos = end;
      const args: Node[] = [];
      for (let arg = afterBlanks(additive); arg !== null; arg = afterBlanks(additive)) args.push(arg);
      return { name: cursor.src.slice(nameAt, end).toLowerCase(), args, offset: nameAt };
    }
  }
  cursor.pos = start;
  return undefined;
}

/** The tree eql.peggy builds for `text`, or undefined where this reader leaves it to the generated parser. */
export function readEql(text: string): Query | undefined {
  cursor.src = text;
  cursor.pos = 0;
  try {
    blanks();
    const found = query();
    if (!found) return undefined;
    const pipes: Node[] = [];
    for (let next = afterBlanks(pipe); next !== null; next = afterBlanks(pipe)) pipes.push(next);
    blanks();
    return cursor.pos === cursor.src.length ? ({ ...found, pipes } as Query) : undefined;
  } catch {
    // The grammar's own error, or nesting deeper than the stack: the generated parser answers as
    // it always has.
    return undefined;
  } finally {
    cursor.src = '';
  }
}
