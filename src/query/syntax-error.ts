import type { QueryProblem } from './types.js';

/** What a generated (peggy) parser throws: where it stopped and what it would have accepted there. */
interface PeggyExpectation {
  type: 'literal' | 'class' | 'any' | 'end' | 'other';
  text?: string;
  description?: string;
}

interface PeggySyntaxError {
  expected: PeggyExpectation[] | null;
  found: string | null;
  location: { start: { offset: number } };
}

export function isPeggySyntaxError(err: unknown): err is PeggySyntaxError {
  return typeof err === 'object' && err !== null && 'location' in err && 'expected' in err;
}

/** Closing delimiters: when one is expected at the end of the query, it is the whole story. */
const CLOSERS = new Set([')', ']', '}', '"', '/']);

/**
 * A peggy failure as one short message: `expected ")"` for an unclosed group, else the things the
 * grammar would have accepted (its named rules, e.g. "a value", and its literal words), and what
 * was found instead. Whitespace is named only when nothing else would do.
 */
export function problemFromSyntaxError(err: PeggySyntaxError, text: string): QueryProblem {
  const offset = err.location.start.offset;
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
  const closers = names.filter((n) => CLOSERS.has(safeParse(n)));
  let wanted: string[];
  if (atEnd && closers.length > 0) wanted = [closers[0]!];
  else {
    wanted = names.filter((n) => n !== 'whitespace');
    if (wanted.length === 0) wanted = names;
  }
  const list = wanted.length <= 1 ? (wanted[0] ?? 'something else') : `${wanted.slice(0, -1).join(', ')} or ${wanted[wanted.length - 1]}`;
  const found = atEnd ? '' : `, found ${JSON.stringify(err.found ?? text[offset])}`;
  return { offset, length: atEnd ? 1 : Math.max(1, (err.found ?? '').length), message: `expected ${list}${found}` };
}

function safeParse(quoted: string): string {
  try {
    const v: unknown = JSON.parse(quoted);
    return typeof v === 'string' ? v : '';
  } catch {
    return '';
  }
}
