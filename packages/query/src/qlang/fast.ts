import type { Query } from './ast.js';
import { COMMANDS } from './tree.js';
import { ASK_THE_GRAMMAR, blanks, commaList, CR, cursor, digitsEnd, isFieldChar, keyword, LF, literal, mapLiteral, namePattern, parameter, qualifiedName, QUOTE, separation, SLASH, SPACE, STAR, string, TAB, wordEnd, type Node } from './fast-words.js';
import { expression, primary } from './fast-expressions.js';

/**
 * A hand-written reader of qlang.peggy's language, rule for rule in the grammar's order and with its
 * ordered-choice backtracking, that builds the same tree without the generated parser's
 * bookkeeping of expectations for error messages.
 *
 * It reads FROM and the commands detection rules use (WHERE, EVAL, STATS, INLINE STATS, KEEP, DROP,
 * RENAME, LIMIT, SORT, MV_EXPAND, DISSECT, GROK, COMPLETION). Any other command, SET, another source command,
 * a text it cannot read, or one where the grammar raises an error of its own (a string left open),
 * and it answers undefined: the generated parser reads the text again and says what is wrong. So a
 * message always comes from the grammar. test/qlang-fast.test.ts holds it to the grammar's trees.
 *
 * The commands are read here, their expressions in fast-expressions.ts, and words (blanks,
 * keywords, constants, names) in fast-words.ts, which also holds the shared cursor.
 *
 * Why: the generated parser read the 209 qlang queries of the public detection rules (438 KB) in
 * 580-660 ms in a fresh process, and 270-350 ms once optimized: about 1 MB/s. The reader reads all
 * of them in 230-280 ms in a fresh process, 87-98 ms once optimized.
 */

// ---- commands --------------------------------------------------------------------------------

/** `_ "=" !"=" _`: a lone `=` after blanks, and the blanks after it (the cursor is left where it got to either way). */
function loneEquals(): boolean {
  blanks();
  if (cursor.src.charCodeAt(cursor.pos) !== 61 || cursor.src.charCodeAt(cursor.pos + 1) === 61) return false;
  cursor.pos++;
  blanks();
  return true;
}

/** Assignment: `name = value` (a lone `=`), else the expression alone. */
function assignment(): Node | undefined {
  const start = cursor.pos;
  const name = qualifiedName();
  if (name && loneEquals()) {
    const value = expression();
    if (value) return { name, value };
  }
  cursor.pos = start;
  const value = expression();
  return value ? { name: null, value } : undefined;
}

function assignments(): Node[] | undefined {
  const head = assignment();
  return head ? commaList(head, assignment) : undefined;
}

function statsAssignment(): Node | undefined {
  const found = assignment();
  if (!found) return undefined;
  const save = cursor.pos;
  if (separation() && keyword('where')) {
    blanks();
    const filter = expression();
    if (filter) return { ...found, filter };
  }
  cursor.pos = save;
  return found;
}

function statsAssignments(): Node[] | undefined {
  const head = statsAssignment();
  return head ? commaList(head, statsAssignment) : undefined;
}

/** `(_ BY _ @Assignments)?`. */
function statsBy(): Node[] {
  const save = cursor.pos;
  blanks();
  if (keyword('by')) {
    blanks();
    const by = assignments();
    if (by) return by;
  }
  cursor.pos = save;
  return [];
}

function rename(): Node | undefined {
  const start = cursor.pos;
  const first = qualifiedName();
  if (!first) return undefined;
  if (separation() && keyword('as') && separation()) {
    const to = qualifiedName();
    if (to) return { from: first, to };
  }
  cursor.pos = start;
  qualifiedName();
  if (loneEquals()) {
    const from = qualifiedName();
    if (from) return { from, to: first };
  }
  cursor.pos = start;
  return undefined;
}

function sortKey(): Node | undefined {
  const value = expression();
  if (!value) return undefined;
  let save = cursor.pos;
  let descending = false;
  if (separation() && keyword('desc')) descending = true;
  else if (!(cursor.pos > save && keyword('asc'))) cursor.pos = save;
  save = cursor.pos;
  let nulls: string | null = null;
  if (separation() && keyword('nulls') && separation()) nulls = keyword('first') ? 'first' : keyword('last') ? 'last' : null;
  if (nulls === null) cursor.pos = save;
  return { value, descending, nulls, offset: value.offset };
}

function integer(): Node | undefined {
  const start = cursor.pos;
  const end = digitsEnd(cursor.pos);
  if (end === cursor.pos || isFieldChar(cursor.src.charCodeAt(end))) return undefined;
  cursor.pos = end;
  return { value: Number(cursor.src.slice(start, end)), offset: start };
}

/** `(__ WITH _ @MapLiteral)?`. */
function withOptions(): Node | null {
  const save = cursor.pos;
  if (separation() && keyword('with')) {
    blanks();
    const options = mapLiteral();
    if (options) return options;
  }
  cursor.pos = save;
  return null;
}

/** The body of a processing command after its word (at `start`), or undefined where the grammar's alternative fails. */
function commandBody(word: string, start: number): Node | undefined {
  switch (word) {
    case 'where': {
      const condition = separation() ? expression() : undefined;
      return condition && { command: 'where', condition, offset: start };
    }
    case 'eval': {
      const fields = separation() ? assignments() : undefined;
      return fields && { command: 'eval', fields, offset: start };
    }
    case 'stats': {
      const save = cursor.pos;
      let aggregates = separation() ? statsAssignments() : undefined;
      if (!aggregates) {
        cursor.pos = save;
        aggregates = [];
      }
      return { command: 'stats', aggregates, by: statsBy(), offset: start };
    }
    case 'inline':
    case 'inlinestats': {
      if (word === 'inline' && !(separation() && keyword('stats'))) return undefined;
      const aggregates = separation() ? statsAssignments() : undefined;
      return aggregates && { command: 'inline_stats', aggregates, by: statsBy(), offset: start };
    }
    case 'keep':
    case 'drop': {
      const head = separation() ? namePattern() : undefined;
      return head && { command: word, patterns: commaList(head, namePattern), offset: start };
    }
    case 'rename': {
      const head = separation() ? rename() : undefined;
      return head && { command: 'rename', renames: commaList(head, rename), offset: start };
    }
    case 'limit': {
      if (!separation()) return undefined;
      const p = integer() ?? parameter();
      const count = p && (p.type === 'param' ? { value: null, parameter: p.text, offset: p.offset } : p);
      return count && { command: 'limit', count, offset: start };
    }
    case 'sort': {
      const head = separation() ? sortKey() : undefined;
      return head && { command: 'sort', keys: commaList(head, sortKey), offset: start };
    }
    case 'mv_expand': {
      const field = separation() ? qualifiedName() : undefined;
      return field && { command: 'mv_expand', field, offset: start };
    }
    case 'dissect': {
      const input = separation() ? primary() : undefined;
      if (!input) return undefined;
      blanks();
      const pattern = string();
      if (!pattern) return undefined;
      const save = cursor.pos;
      let separator: Node | null = null;
      blanks();
      if (keyword('append_separator')) {
        blanks();
        if (literal(61)) {
          blanks();
          separator = string() ?? null;
        }
      }
      if (!separator) cursor.pos = save;
      return { command: 'dissect', input, pattern, separator, offset: start };
    }
    case 'grok': {
      const input = separation() ? primary() : undefined;
      if (!input) return undefined;
      blanks();
      const head = string();
      return head && { command: 'grok', input, patterns: commaList(head, string), offset: start };
    }
    case 'completion': {
      if (!separation()) return undefined;
      // `target:(@QualifiedName _ "=" !"=" _)?`
      const save = cursor.pos;
      let target = qualifiedName() ?? null;
      if (target && !loneEquals()) target = null;
      if (!target) cursor.pos = save;
      const prompt = primary();
      if (!prompt) return undefined;
      return { command: 'completion', target, prompt, options: withOptions(), offset: start };
    }
    default:
      // A command this reader does not read, or a word the grammar reads as an unknown command.
      throw ASK_THE_GRAMMAR;
  }
}

function processingCommand(): Node | undefined {
  const start = cursor.pos;
  const end = wordEnd(cursor.pos);
  if (end === cursor.pos) return undefined;
  const word = cursor.src.slice(cursor.pos, end).toLowerCase();
  if (!COMMANDS.has(word)) throw ASK_THE_GRAMMAR;
  // Each command's keyword ends where its word does (`!FieldChar`), so the word picks the one alternative that can match.
  cursor.pos = end;
  return commandBody(word, start);
}

function indexPattern(): Node | undefined {
  const start = cursor.pos;
  if (keyword('metadata')) {
    cursor.pos = start;
    return undefined;
  }
  for (;;) {
    const c = cursor.src.charCodeAt(cursor.pos);
    if (Number.isNaN(c) || c === QUOTE || c === 61 || c === 124 || c === 44 || c === 91 || c === 93 || c === 40 || c === 41 || c === SPACE || c === TAB || c === CR || c === LF) break;
    if (c === SLASH) {
      const d = cursor.src.charCodeAt(cursor.pos + 1);
      if (d === SLASH || d === STAR) break;
    }
    cursor.pos++;
  }
  if (cursor.pos > start) return { name: cursor.src.slice(start, cursor.pos), offset: start };
  const s = string();
  return s && { name: s.value, offset: s.offset };
}

function metadataField(): Node | undefined {
  const start = cursor.pos;
  if (cursor.src.charCodeAt(cursor.pos) !== 95) return undefined;
  let end = cursor.pos + 1;
  for (let c = cursor.src.charCodeAt(end); (c >= 97 && c <= 122) || c === 95; c = cursor.src.charCodeAt(++end));
  if (end === cursor.pos + 1) return undefined;
  cursor.pos = end;
  return { name: cursor.src.slice(start, end), offset: start };
}

function from(): Node | undefined {
  const start = cursor.pos;
  if (!keyword('from') || !separation()) return undefined;
  const head = indexPattern();
  if (!head) return undefined;
  const indices = commaList(head, indexPattern);
  const save = cursor.pos;
  let metadata: Node[] = [];
  if (separation() && keyword('metadata') && separation()) {
    const first = metadataField();
    if (first) metadata = commaList(first, metadataField);
    else cursor.pos = save;
  } else {
    cursor.pos = save;
  }
  return { command: 'from', timeSeries: false, indices, metadata, offset: start };
}

function pipe(): Query | undefined {
  blanks();
  if (!/^from$/i.test(cursor.src.slice(cursor.pos, wordEnd(cursor.pos)))) throw ASK_THE_GRAMMAR;
  const source = from();
  if (!source) return undefined;
  const commands: Node[] = [];
  for (;;) {
    const save = cursor.pos;
    blanks();
    if (!literal(124)) {
      cursor.pos = save;
      break;
    }
    blanks();
    const command = processingCommand();
    if (!command) {
      cursor.pos = save;
      break;
    }
    commands.push(command);
  }
  blanks();
  return cursor.pos === cursor.src.length ? ({ source, commands } as unknown as Query) : undefined;
}

/** The grammar's tree of `text`, or undefined where the grammar must read it (and may refuse it). */
export function readQlang(text: string): Query | undefined {
  cursor.src = text;
  cursor.pos = 0;
  try {
    return pipe();
  } catch (err) {
    // Nesting deeper than the stack: the grammar says so.
    if (err === ASK_THE_GRAMMAR || err instanceof RangeError) return undefined;
    throw err;
  } finally {
    cursor.src = '';
  }
}
