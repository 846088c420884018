import { checkedOutcome } from '../syntax-error.js';
import type { ParseOutcome, QueryLanguage } from '../types.js';
import type { Query } from './ast.js';
import { checkQuery } from './check.js';
import { parse as parseTree } from './eql.generated.js';
import { readEql } from './fast.js';
import { runQuery } from './run.js';

/**
 * The hand-written reader (fast.ts) answers for the queries it can read, with the grammar's tree;
 * the generated parser reads the rest and gives every message.
 */
function parseWithReader(text: string, options: object): Query {
  return readEql(text) ?? (parseTree(text, options) as Query);
}

/** eql: the grammar (eql.peggy), the checks the grammar cannot make (check.ts), the evaluator (run.ts). */
export const language: QueryLanguage = {
  name: 'eql',
  parse: (text: string): ParseOutcome => checkedOutcome<Query>(parseWithReader, text, (tree) => checkQuery(tree, text), (tree, fields) => ({ language: 'eql', fields, run: (events, options) => runQuery(tree, events, options) })),
};
