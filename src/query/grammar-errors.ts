import type { QueryProblem } from './types.js';

/**
 * Turns the syntax error a generated (peggy) parser throws into a QueryProblem: the offset where
 * parsing could go no further, and a short `expected …` message. peggy's own message lists every
 * alternative with its character classes; users read the few tokens that would have fitted.
 */

interface Expectation {
  type: 'literal' | 'class' | 'any' | 'end' | 'other';
  text?: string;
  description?: string;
}

interface PeggySyntaxError {
  expected: Expectation[] | null;
  found: string | null;
  location: { start: { offset: number }; end: { offset: number } };
  message: string;
}

export function isPeggySyntaxError(err: unknown): err is PeggySyntaxError {
  return typeof err === 'object' && err !== null && 'location' in err && 'expected' in err;
}

/**
 * Closing brackets first (after an unclosed group they are what the user most likely forgot), then
 * named tokens ("field name", "string"), then keywords and operators.
 */
const CLOSERS = new Set([')', ']', '"', '`']);
/** The most alternatives a message names before it stops listing. */
const MAX_LISTED = 6;

function describe(e: Expectation): string | undefined {
  switch (e.type) {
    case 'literal':
      return JSON.stringify(e.text);
    case 'end':
      return 'end of query';
    case 'other':
      return e.description;
    default:
      return undefined; // classes and "any" come from unnamed rules: too low-level to show
  }
}

function rank(e: Expectation): number {
  if (e.type === 'literal') return CLOSERS.has(e.text ?? '') ? 0 : 2;
  if (e.type === 'other') return 1;
  return 3;
}

export function syntaxProblem(err: PeggySyntaxError): QueryProblem {
  const offset = err.location.start.offset;
  // A failure raised by the grammar itself (error()) carries its own message and no expectations.
  if (!err.expected) return { offset, length: Math.max(1, err.location.end.offset - offset), message: err.message };
  const sorted = [...err.expected].sort((a, b) => rank(a) - rank(b));
  const names: string[] = [];
  for (const e of sorted) {
    const name = describe(e);
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  const listed = names.slice(0, MAX_LISTED);
  const more = names.length > listed.length;
  let message = listed.length === 0 ? 'unexpected input' : `expected ${more ? `${listed.join(', ')}, …` : joinAlternatives(listed)}`;
  message += err.found === null ? ', found end of query' : `, found ${JSON.stringify(err.found)}`;
  return { offset, length: 1, message };
}

function joinAlternatives(items: string[]): string {
  if (items.length === 1) return items[0]!;
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
