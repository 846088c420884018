/**
 * kuery (KQL): `field:value`, value lists `field:(a or b)`, `and`/`or`/`not` (any case), quoted
 * phrases, `*` wildcards in values and field names, ranges `field >= 10`, exists `field:*`, nested
 * `field:{ inner:query }` and backslash escapes. Parsed by kuery.peggy, and first by its
 * hand-written reader (fast.ts), which builds the same tree faster.
 *
 * Offline matching (run): values compare as keyword fields do (src/query/keyword-match.ts): whole
 * values, case-sensitive, wildcards over the whole value; a quoted phrase is matched exactly,
 * its `*` literal. A value without a field matches any field of the event. A field pattern
 * (`process.*:x`) matches through any field whose dotted name fits it. `field:{q}` matches when one
 * object under `field` satisfies q on its own (q's fields are relative to it). An empty query
 * matches every event. Text fields, which the server analyses into words, are not modelled.
 */
import { parse as parseKuery } from './kuery.generated.js';
import { readKuery } from './fast.js';
import type { KueryField, KueryNode } from './ast.js';
import { treeOrProblem } from '../syntax-error.js';
import { rangeTest, termTest, type ValueTest } from '../keyword-match.js';
import { fieldValues } from '../event-fields.js';
import { anyFieldValue } from '../doc-fields.js';
import type { CompiledQuery, EventDoc, FieldUse, ParseOutcome, QueryLanguage } from '../types.js';

type DocTest = (doc: EventDoc) => boolean;

function fieldsOf(node: KueryNode, prefix: string, out: FieldUse[]): void {
  const use = (f: KueryField): void => {
    out.push({ name: prefix + f.name, offset: f.offset });
  };
  switch (node.type) {
    case 'all':
      return;
    case 'or':
    case 'and':
      for (const item of node.items) fieldsOf(item, prefix, out);
      return;
    case 'not':
      return fieldsOf(node.item, prefix, out);
    case 'match':
      if (node.field) use(node.field);
      return;
    case 'exists':
    case 'range':
      return use(node.field);
    case 'nested':
      use(node.field);
      return fieldsOf(node.query, `${prefix}${node.field.name}.`, out);
  }
}

/** kuery's field: a name, a pattern (`process.*`, not an escaped `\*`), or none. */
function anyValue(field: KueryField | null, test: ValueTest): DocTest {
  if (field && !field.wildcard && field.name.includes('*')) return (doc) => fieldValues(doc, field.name).some(test);
  return anyFieldValue(field ? field.name : null, test);
}

function compile(node: KueryNode): DocTest {
  switch (node.type) {
    case 'all':
      return () => true;
    case 'or': {
      const items = node.items.map(compile);
      return (doc) => items.some((t) => t(doc));
    }
    case 'and': {
      const items = node.items.map(compile);
      return (doc) => items.every((t) => t(doc));
    }
    case 'not': {
      const item = compile(node.item);
      return (doc) => !item(doc);
    }
    case 'match':
      return anyValue(node.field, termTest(node.value.pattern));
    case 'exists':
      return anyValue(node.field, (v) => v !== null && v !== undefined);
    case 'range':
      return anyValue(node.field, rangeTest(node.op, node.value.text));
    case 'nested': {
      const inner = compile(node.query);
      const name = node.field.name;
      return (doc) => fieldValues(doc, name).some((v) => typeof v === 'object' && v !== null && !Array.isArray(v) && inner(v as EventDoc));
    }
  }
}

function parse(text: string): ParseOutcome {
  // The hand-written reader answers for the queries it can read; the rest, and every message, come from the grammar.
  const read = readKuery(text);
  const parsed = read ? { tree: read } : treeOrProblem<KueryNode>(parseKuery, text);
  if ('problem' in parsed) return { ok: false, problem: parsed.problem };
  const tree = parsed.tree;
  const fields: FieldUse[] = [];
  fieldsOf(tree, '', fields);
  let test: DocTest | undefined;
  const query: CompiledQuery = {
    language: 'kuery',
    fields,
    run(events) {
      test ??= compile(tree);
      return events.filter((e) => test!(e)).map((e) => ({ events: [e] }));
    },
  };
  return { ok: true, query };
}

export const language: QueryLanguage = { name: 'kuery', parse };
