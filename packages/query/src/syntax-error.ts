import type { CompiledQuery, FieldUse, ParseOutcome, QueryProblem } from './types.js';

/** What a generated (peggy) parser throws: where it stopped and what it would have accepted there. */
interface PeggyExpectation {
  type: 'literal' | 'class' | 'any' | 'end' | 'other';
  text?: string;
  description?: string;
}

interface PeggySyntaxError {
  expected: PeggyExpectation[] | null;
  found: string | null;
  location: { start: { offset: number }; end: { offset: number } };
  message: string;
}

export function isPeggySyntaxError(err: unknown): err is PeggySyntaxError {
  return typeof err === 'object' && err !== null && 'location' in err && 'expected' in err;
}

/** More alternatives than this make a message nobody reads. */
const MAX_LISTED = 3;

/** Closing delimiters: when one is expected at the end of the query, it is the whole story. */
const CLOSERS = new Set(['")"', '"]"', '"}"', 'a closing quote', 'the closing /', '] or }']);

/**
 * A peggy failure as one short message: `expected ")"` for an unclosed group, else the things the
 * grammar would have accepted (its named rules, e.g. "a value", and its literal words), and what
 * was found instead. Whitespace is named only when nothing else would do.
 */
export function problemFromSyntaxError(err: PeggySyntaxError, text: string): QueryProblem {
  const offset = err.location.start.offset;
  // A failure the grammar raises itself (its error()) carries its own message and no expectations.
  if (!err.expected) return { offset, length: Math.max(1, err.location.end.offset - offset), message: err.message };
  const names: string[] = [];
  const add = (name: string) => {
    if (!names.includes(name)) names.push(name);
  };
  for (const e of err.expected ?? []) {
    if (e.type === 'literal' && e.text !== undefined) add(JSON.stringify(e.text));
    else if (e.type === 'other' && e.description) add(e.description);
    else if (e.type === 'end') add('the end of the query');
  }
  const atEnd = offset >= text.length;
  const closers = names.filter((n) => CLOSERS.has(n));
  if (atEnd && closers.length > 0) return { offset, length: 1, message: `expected ${closers[0]}` };
  // Named rules ("a value", "a field name") say more than the punctuation that may start them.
  const named = names.filter((n) => n !== 'whitespace' && !n.startsWith('"'));
  // An opening quote is one way to write a value; "a value" already says it.
  const literal = names.filter((n) => n.startsWith('"') && !(n === '"\\""' && named.length > 0));
  let wanted = [...named, ...literal].slice(0, MAX_LISTED);
  if (wanted.length === 0) wanted = names;
  const list = wanted.length <= 1 ? (wanted[0] ?? 'something else') : `${wanted.slice(0, -1).join(', ')} or ${wanted[wanted.length - 1]}`;
  const found = atEnd ? '' : `, found ${JSON.stringify(err.found ?? text[offset])}`;
  return { offset, length: atEnd ? 1 : Math.max(1, (err.found ?? '').length), message: `expected ${list}${found}` };
}

/** A query deeper than the stack reaches: a problem of the query, at its start. */
const TOO_DEEP: QueryProblem = { offset: 0, length: 1, message: 'nested too deeply to read' };

function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}

/** Runs a generated parser over the text: its tree, or the problem where the text stops being the language. */
export function treeOrProblem<T>(parse: (text: string, options: object) => unknown, text: string): { tree: T } | { problem: QueryProblem } {
  try {
    return { tree: parse(text, {}) as T };
  } catch (err) {
    if (isPeggySyntaxError(err)) return { problem: problemFromSyntaxError(err, text) };
    // Brackets nested deeper than the parser's stack reaches.
    if (isStackOverflow(err)) return { problem: TOO_DEEP };
    throw err;
  }
}

/**
 * The outcome of a grammar whose tree has checks of its own (eql, qlang): where the text stops
 * being the language, else the first problem the checks find, else the query `compile` makes.
 */
export function checkedOutcome<T>(
  parse: (text: string, options: object) => unknown,
  text: string,
  check: (tree: T) => { problem?: QueryProblem; fields: FieldUse[]; notes?: QueryProblem[] },
  compile: (tree: T, fields: FieldUse[]) => CompiledQuery,
): ParseOutcome {
  const parsed = treeOrProblem<T>(parse, text);
  if ('problem' in parsed) return { ok: false, problem: parsed.problem };
  try {
    const { problem, fields, notes } = check(parsed.tree);
    if (problem) return { ok: false, problem };
    const query = compile(parsed.tree, fields);
    if (notes?.length) query.notes = notes;
    return { ok: true, query };
  } catch (err) {
    // A chain of 20,000 `or` terms reads fine but is a tree 20,000 deep, past what the checks can
    // walk; the server refuses such depth too (its parsers stop at a depth limit).
    if (isStackOverflow(err)) return { ok: false, problem: TOO_DEEP };
    throw err;
  }
}
