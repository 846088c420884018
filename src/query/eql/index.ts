import { checkedOutcome } from '../syntax-error.js';
import type { ParseOutcome, QueryLanguage } from '../types.js';
import type { Query } from './ast.js';
import { checkQuery } from './check.js';
import { parse as parseTree } from './eql.generated.js';
import { runQuery } from './run.js';

/** eql: the grammar (eql.peggy), the checks the grammar cannot make (check.ts), the evaluator (run.ts). */
export const language: QueryLanguage = {
  name: 'eql',
  parse: (text: string): ParseOutcome => checkedOutcome<Query>(parseTree, text, checkQuery, (tree, fields) => ({ language: 'eql', fields, run: (events, options) => runQuery(tree, events, options) })),
};
