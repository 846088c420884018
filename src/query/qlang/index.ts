import { treeOrProblem } from '../syntax-error.js';
import type { ParseOutcome, QueryLanguage } from '../types.js';
import type { Query } from './ast.js';
import { checkQuery } from './check.js';
import { parse as parseTree } from './qlang.generated.js';
import { runQuery } from './run.js';

/** qlang: the grammar (qlang.peggy), the checks the grammar cannot make (check.ts), the evaluator (run.ts). */
export const language: QueryLanguage = {
  name: 'qlang',
  parse(text: string): ParseOutcome {
    const parsed = treeOrProblem<Query>(parseTree, text);
    if ('problem' in parsed) return { ok: false, problem: parsed.problem };
    const tree = parsed.tree;
    const { problem, fields } = checkQuery(tree);
    if (problem) return { ok: false, problem };
    return { ok: true, query: { language: 'qlang', fields, indices: tree.source.command === 'from' ? tree.source.indices.map((i) => i.name) : [], run: (events) => runQuery(tree, events) } };
  },
};
