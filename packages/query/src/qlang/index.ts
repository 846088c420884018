import { checkedOutcome } from '../syntax-error.js';
import type { CompiledQuery, ParseOutcome, QueryLanguage } from '../types.js';
import type { Query } from './ast.js';
import { checkQuery } from './check.js';
import { OfflineError } from './evaluate.js';
import { readQlang } from './fast.js';
import { parse as parseTree } from './qlang.generated.js';
import { runQuery } from './run.js';

/** The hand-written reader's tree where it reads the text (fast.ts), else the grammar's, which says what is wrong. */
function readOrParse(text: string, options: object): Query {
  return readQlang(text) ?? (parseTree(text, options) as Query);
}

/**
 * qlang: the grammar (qlang.peggy), the checks the grammar cannot make (check.ts), the evaluator
 * (run.ts). A query with notes (a function or command svcform does not know) validates with a
 * warning but is not run: whatever rows it reached, the answer could be wrong, so `run` refuses it
 * up front, even over no events (the emulator's preview included).
 */
export const language: QueryLanguage = {
  name: 'qlang',
  parse: (text: string): ParseOutcome =>
    checkedOutcome<Query>(readOrParse, text, checkQuery, (tree, fields) => {
      const query: CompiledQuery = {
        language: 'qlang',
        fields,
        indices: tree.source.command === 'from' ? tree.source.indices.map((i) => i.name) : [],
        run: (events) => {
          const unknown = query.notes?.[0];
          if (unknown) throw new OfflineError(`cannot evaluate offline: ${unknown.message}`);
          return runQuery(tree, events);
        },
      };
      return query;
    }),
};
