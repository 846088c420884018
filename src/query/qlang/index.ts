import { checkedOutcome } from '../syntax-error.js';
import type { ParseOutcome, QueryLanguage } from '../types.js';
import type { Query } from './ast.js';
import { checkQuery } from './check.js';
import { parse as parseTree } from './qlang.generated.js';
import { runQuery } from './run.js';

/** qlang: the grammar (qlang.peggy), the checks the grammar cannot make (check.ts), the evaluator (run.ts). */
export const language: QueryLanguage = {
  name: 'qlang',
  parse: (text: string): ParseOutcome => checkedOutcome<Query>(parseTree, text, checkQuery, (tree, fields) => ({ language: 'qlang', fields, indices: tree.source.command === 'from' ? tree.source.indices.map((i) => i.name) : [], run: (events) => runQuery(tree, events) })),
};
