import { badRequest } from '../../errors.js';
import { wildcardMatcher, wildcardPattern, type TextTest } from '@svcform/query/regex/wildcard.js';

/**
 * The part of KQL that Fleet list filters use: `field:value`, quoted values, `*` wildcards,
 * `field:(a or b)`, range comparisons, `and` / `or` / `not` and parentheses. Field names may carry
 * the saved-object type prefix (`ingest-agent-policies.name`); unknown fields are refused the way
 * the server's kuery validation refuses them.
 */
export interface KueryTarget {
  /** Saved-object type names accepted as field prefixes; the first one is named in errors. */
  types: string[];
  /** Fields that exist in the type's mappings (dotted paths). */
  fields: string[];
}

type Node =
  | { op: 'and' | 'or'; items: Node[] }
  | { op: 'not'; item: Node }
  | { op: 'match'; field: string; values: string[] }
  | { op: 'range'; field: string; cmp: '<' | '<=' | '>' | '>='; value: string };

type Token = { t: 'word' | 'quoted' | '(' | ')' | ':' | 'cmp'; v: string };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')' || c === ':') {
      out.push({ t: c, v: c });
      i++;
    } else if (c === '<' || c === '>') {
      const op = src[i + 1] === '=' ? c + '=' : c;
      out.push({ t: 'cmp', v: op });
      i += op.length;
    } else if (c === '"') {
      let j = i + 1;
      let v = '';
      while (j < src.length && src[j] !== '"') {
        if (src[j] === '\\' && j + 1 < src.length) j++;
        v += src[j];
        j++;
      }
      if (j >= src.length) throw syntax(src, 'unterminated quoted value');
      out.push({ t: 'quoted', v });
      i = j + 1;
    } else {
      let j = i;
      let v = '';
      while (j < src.length && !/[\s():<>"]/.test(src[j])) {
        if (src[j] === '\\' && j + 1 < src.length) j++;
        v += src[j];
        j++;
      }
      out.push({ t: 'word', v });
      i = j;
    }
  }
  return out;
}

function syntax(src: string, why: string) {
  return badRequest(`KQLSyntaxError: ${why} in kuery [${src}]`);
}

function parse(src: string): Node {
  const tokens = tokenize(src);
  let pos = 0;
  const peekWord = (w: string) => tokens[pos]?.t === 'word' && tokens[pos].v.toLowerCase() === w;

  const parseOr = (): Node => {
    const items = [parseAnd()];
    while (peekWord('or')) {
      pos++;
      items.push(parseAnd());
    }
    return items.length === 1 ? items[0] : { op: 'or', items };
  };
  const parseAnd = (): Node => {
    const items = [parseNot()];
    while (peekWord('and')) {
      pos++;
      items.push(parseNot());
    }
    return items.length === 1 ? items[0] : { op: 'and', items };
  };
  const parseNot = (): Node => {
    if (peekWord('not')) {
      pos++;
      return { op: 'not', item: parseNot() };
    }
    return parsePrimary();
  };
  const parseValue = (): string => {
    const tok = tokens[pos];
    if (!tok || (tok.t !== 'word' && tok.t !== 'quoted')) throw syntax(src, 'expected a value');
    pos++;
    // A quoted value is literal: escape its wildcards so only bare `*` matches anything.
    return tok.t === 'quoted' ? tok.v.replace(/\*/g, '\\*') : tok.v;
  };
  const parsePrimary = (): Node => {
    const tok = tokens[pos];
    if (!tok) throw syntax(src, 'unexpected end of expression');
    if (tok.t === '(') {
      pos++;
      const inner = parseOr();
      if (tokens[pos]?.t !== ')') throw syntax(src, 'expected ")"');
      pos++;
      return inner;
    }
    if (tok.t !== 'word') throw syntax(src, `unexpected "${tok.v}"`);
    const field = tok.v;
    pos++;
    const next = tokens[pos];
    if (next?.t === 'cmp') {
      pos++;
      return { op: 'range', field, cmp: next.v as '<' | '<=' | '>' | '>=', value: parseValue() };
    }
    if (next?.t !== ':') throw syntax(src, `expected ":" after field "${field}"`);
    pos++;
    if (tokens[pos]?.t === '(') {
      pos++;
      const values = [parseValue()];
      while (peekWord('or')) {
        pos++;
        values.push(parseValue());
      }
      if (tokens[pos]?.t !== ')') throw syntax(src, 'expected ")"');
      pos++;
      return { op: 'match', field, values };
    }
    return { op: 'match', field, values: [parseValue()] };
  };

  const node = parseOr();
  if (pos !== tokens.length) throw syntax(src, `unexpected "${tokens[pos].v}"`);
  return node;
}

function fieldPath(field: string, target: KueryTarget): string {
  let path = field;
  for (const type of target.types) {
    if (field.startsWith(`${type}.`)) {
      path = field.slice(type.length + 1);
      break;
    }
  }
  if (!target.fields.includes(path)) {
    throw badRequest(`This key '${field}' does not exist in ${target.types[0]} saved object index patterns`);
  }
  return path;
}

function resolve(record: Record<string, any>, path: string): unknown[] {
  let cur: unknown = record;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return [];
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined || cur === null) return [];
  return Array.isArray(cur) ? cur : [cur];
}

/** A value with `*` wildcards (a backslash makes the next character literal), matched without backtracking. */
function wildcardTest(value: string): TextTest {
  const parts: Array<string | { wildcard: '*' }> = [];
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '\\' && i + 1 < value.length) parts.push(value[++i]!);
    else parts.push(c === '*' ? { wildcard: '*' } : c);
  }
  return wildcardMatcher(wildcardPattern(parts), false);
}

function evaluate(node: Node, record: Record<string, any>, target: KueryTarget): boolean {
  switch (node.op) {
    case 'and':
      return node.items.every((n) => evaluate(n, record, target));
    case 'or':
      return node.items.some((n) => evaluate(n, record, target));
    case 'not':
      return !evaluate(node.item, record, target);
    case 'match': {
      const present = resolve(record, fieldPath(node.field, target));
      return node.values.some((v) => {
        if (v === '*') return present.length > 0;
        const re = wildcardTest(v);
        return present.some((x) => re.test(String(x)));
      });
    }
    case 'range': {
      const present = resolve(record, fieldPath(node.field, target));
      return present.some((x) => {
        const a = typeof x === 'number' ? x : Number.isFinite(Number(x)) ? Number(x) : String(x);
        const b = typeof a === 'number' ? Number(node.value) : node.value;
        if (node.cmp === '<') return a < b;
        if (node.cmp === '<=') return a <= b;
        if (node.cmp === '>') return a > b;
        return a >= b;
      });
    }
  }
}

/** A predicate for the records the kuery selects; every field is checked once, up front. */
export function kueryFilter(kuery: string | null, target: KueryTarget): (record: Record<string, any>) => boolean {
  if (!kuery || !kuery.trim()) return () => true;
  const node = parse(kuery);
  const check = (n: Node): void => {
    if ('items' in n) n.items.forEach(check);
    else if ('item' in n) check(n.item);
    else fieldPath(n.field, target);
  };
  check(node);
  return (record) => evaluate(node, record, target);
}
