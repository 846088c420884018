import { readKuery } from '@svcform/query/kuery/fast.js';
import { parse as parseKuery } from '@svcform/query/kuery/kuery.generated.js';
import type { KueryNode } from '@svcform/query/kuery/ast.js';
import { termTest } from '@svcform/query/keyword-match.js';
import { wildcardMatcher, wildcardPattern } from '@svcform/query/regex/wildcard.js';
import { EmuError } from '../../errors.js';

/**
 * The `kuery` of `GET /api/asset_criticality/list` (OAS FindAssetCriticalityRecords), evaluated
 * against the fields of the asset criticality index. All of them are `keyword` fields but
 * `@timestamp` (a date), so a range compares strings in the index's order (Unicode code points,
 * not numbers: `"10" < "9"`), and a match is a whole, case-sensitive value. That is what lets a
 * caller page past the search window by `id_value > "last"`.
 */

export type Predicate<D> = (doc: D) => boolean;

const DATE_FIELDS = new Set(['@timestamp']);

/** Negative, zero or positive in the order of Unicode code points (a keyword field's sort order). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

/** UTF-16 code units reordered so that surrogates (characters above U+FFFF) sort after U+E000-U+FFFF. */
function rank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/** How the predicate reads a document: one field's value, and the names of all its fields. */
export interface DocFields<D> {
  value(doc: D, field: string): unknown;
  names(doc: D): string[];
}

function fieldTest<D>(fields: DocFields<D>, field: { name: string; wildcard: boolean } | null, test: (v: unknown, name: string) => boolean): Predicate<D> {
  if (field === null) return (doc) => fields.names(doc).some((name) => test(fields.value(doc, name), name));
  if (field.wildcard) {
    const pattern = wildcardMatcher(wildcardPattern([...splitStars(field.name)]), false);
    return (doc) => fields.names(doc).some((name) => pattern.test(name) && test(fields.value(doc, name), name));
  }
  const name = field.name;
  return (doc) => test(fields.value(doc, name), name);
}

function* splitStars(name: string): Generator<string | { wildcard: '*' }> {
  const parts = name.split('*');
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) yield { wildcard: '*' };
    if (parts[i]) yield parts[i];
  }
}

function rangeHolds(op: '<' | '<=' | '>' | '>=', c: number): boolean {
  return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
}

function compile<D>(node: KueryNode, fields: DocFields<D>): Predicate<D> {
  switch (node.type) {
    case 'all':
      return () => true;
    case 'and': {
      const items = node.items.map((n) => compile(n, fields));
      return (doc) => items.every((t) => t(doc));
    }
    case 'or': {
      const items = node.items.map((n) => compile(n, fields));
      return (doc) => items.some((t) => t(doc));
    }
    case 'not': {
      const item = compile(node.item, fields);
      return (doc) => !item(doc);
    }
    case 'match': {
      const test = termTest(node.value.pattern);
      return fieldTest(fields, node.field, (v) => v !== undefined && test(v));
    }
    case 'exists':
      return fieldTest(fields, node.field, (v) => v !== undefined && v !== null);
    case 'range': {
      const bound = node.value.text;
      const op = node.op;
      const boundTime = Date.parse(bound);
      return fieldTest(fields, node.field, (v, name) => {
        if (typeof v !== 'string') return false;
        if (DATE_FIELDS.has(name)) return !Number.isNaN(boundTime) && rangeHolds(op, Date.parse(v) - boundTime);
        return rangeHolds(op, compareCodePoints(v, bound));
      });
    }
    case 'nested':
      // The index has no nested fields: a nested query matches nothing.
      return () => false;
  }
}

/** The kuery's tree; a query that is not KQL is a 400 (security error shape). */
export function kueryTree(text: string): KueryNode {
  const tree = readKuery(text);
  if (tree) return tree;
  try {
    return parseKuery(text, {}) as KueryNode;
  } catch (err) {
    throw new EmuError(400, `KQLSyntaxError: ${(err as Error).message}`, 'security');
  }
}

/** The kuery as a test of one record. */
export function kueryPredicate<D>(tree: KueryNode, fields: DocFields<D>): Predicate<D> {
  return compile(tree, fields);
}

/** A conjunction of one exact match on `term` and ranges on `range`: what an index answers without a scan. */
export interface TermAndRanges {
  term: string;
  ranges: Array<{ op: '<' | '<=' | '>' | '>='; bound: string }>;
}

/**
 * `term: "x" and range > "y" ...` (quoted or plain, no wildcard) read as a TermAndRanges, or
 * undefined for any other query (those are evaluated record by record).
 */
export function termAndRanges(tree: KueryNode, termField: string, rangeField: string): TermAndRanges | undefined {
  const items = tree.type === 'and' ? tree.items : [tree];
  let term: string | undefined;
  const ranges: TermAndRanges['ranges'] = [];
  for (const item of items) {
    if (item.type === 'match' && item.field && !item.field.wildcard && item.field.name === termField && item.value.pattern.every((p) => typeof p === 'string') && term === undefined) {
      term = item.value.pattern.join('');
    } else if (item.type === 'range' && !item.field.wildcard && item.field.name === rangeField) {
      ranges.push({ op: item.op, bound: item.value.text });
    } else {
      return undefined;
    }
  }
  return term === undefined ? undefined : { term, ranges };
}
