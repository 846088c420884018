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

export type Doc = Record<string, unknown>;
export type Predicate = (doc: Doc) => boolean;

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

/** The dotted fields of one record (see render in index.ts) and their values. */
function valueOf(doc: Doc, field: string): unknown {
  if (field in doc) return doc[field];
  let at: unknown = doc;
  for (const part of field.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

function leafFields(doc: Doc, prefix = '', out: string[] = []): string[] {
  for (const [k, v] of Object.entries(doc)) {
    const name = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) leafFields(v as Doc, name, out);
    else out.push(name);
  }
  return out;
}

function fieldTest(field: { name: string; wildcard: boolean } | null, test: (v: unknown, name: string) => boolean): Predicate {
  if (field === null) return (doc) => leafFields(doc).some((name) => test(valueOf(doc, name), name));
  if (field.wildcard) {
    const pattern = wildcardMatcher(wildcardPattern([...splitStars(field.name)]), false);
    return (doc) => leafFields(doc).some((name) => pattern.test(name) && test(valueOf(doc, name), name));
  }
  const name = field.name;
  return (doc) => test(valueOf(doc, name), name);
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

function compile(node: KueryNode): Predicate {
  switch (node.type) {
    case 'all':
      return () => true;
    case 'and': {
      const items = node.items.map(compile);
      return (doc) => items.every((t) => t(doc));
    }
    case 'or': {
      const items = node.items.map(compile);
      return (doc) => items.some((t) => t(doc));
    }
    case 'not': {
      const item = compile(node.item);
      return (doc) => !item(doc);
    }
    case 'match': {
      const test = termTest(node.value.pattern);
      return fieldTest(node.field, (v) => v !== undefined && test(v));
    }
    case 'exists':
      return fieldTest(node.field, (v) => v !== undefined && v !== null);
    case 'range': {
      const bound = node.value.text;
      const op = node.op;
      const boundTime = Date.parse(bound);
      return fieldTest(node.field, (v, name) => {
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

/** The kuery as a test of one record; a query that is not KQL is a 400 (security error shape). */
export function kueryPredicate(text: string): Predicate {
  let tree = readKuery(text);
  if (!tree) {
    try {
      tree = parseKuery(text, {}) as KueryNode;
    } catch (err) {
      throw new EmuError(400, `KQLSyntaxError: ${(err as Error).message}`, 'security');
    }
  }
  return compile(tree);
}
