import { treeOrProblem } from '../syntax-error.js';
import type { ParseOutcome, QueryLanguage } from '../types.js';
import type { Query } from './ast.js';
import { checkQuery } from './check.js';
import { parse as parseTree } from './eql.generated.js';
import { runQuery } from './run.js';

/** eql: the grammar (eql.peggy), the checks the grammar cannot make (check.ts), the evaluator (run.ts). */
export const language: QueryLanguage = {
  name: 'eql',
  parse(text: string): ParseOutcome {
    const parsed = treeOrProblem<Query>(parseTree, text);
    if ('problem' in parsed) return { ok: false, problem: parsed.problem };
    const tree = parsed.tree;
    const { problem, fields } = checkQuery(tree);
    if (problem) return { ok: false, problem };
    return { ok: true, query: { language: 'eql', fields, run: (events, options) => runQuery(tree, events, options) } };
  },
};
