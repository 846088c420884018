import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isMap, isPair, isScalar, isSeq, parseDocument, stringify, type Node } from 'yaml';
import { sourceOffsetInScalar, valueSources } from '../../src/manifest/scalar-position.js';
import { seededRandom } from '../../bench/generate.js';

/**
 * Differential test of the value-offset to source-offset mapping: for many generated scalars in
 * every style, each character of the yaml package's value must map to the source character that
 * produced it (itself, its escape's backslash, a quote of '', or the line break a fold turned into
 * a space or newline), in order.
 */

const rand = seededRandom(15);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
const int = (max: number) => Math.floor(rand() * max);

const WORDS = ['process.name', 'cmd.exe', 'and', 'or', 'not', '(a', 'b)', '"x y"', "it's", 'a\\b', 'é', '😀', '#tag', 'k:v', '*', '-flag', '[1 TO 5]', '{c}', '%', '@', '`'];

function words(n: number): string {
  return Array.from({ length: n }, () => pick(WORDS)).join(pick([' ', ' ', '  ']));
}

/** A value with line breaks, empty lines, leading and trailing spaces as block scalars allow. */
function multiLineValue(): string {
  const lines = Array.from({ length: 1 + int(5) }, () => (rand() < 0.2 ? '' : (rand() < 0.2 ? '  ' : '') + words(1 + int(4))));
  return lines.join('\n') + pick(['', '\n', '\n\n']);
}

function wrap(scalar: string, shape: number): string {
  // The scalar text is written as it should appear after the key; continuation lines are already indented for `indent`.
  switch (shape) {
    case 0:
      return `q: ${scalar}\n`;
    case 1:
      return `spec:\n  q: ${scalar}\nother: 1\n`;
    case 2:
      return `list:\n  - q: ${scalar}\n    z: 2\n`;
    default:
      return `spec:\n  q: !!str ${scalar} \nafter: x\n`;
  }
}

function indentFor(shape: number): string {
  return shape === 0 ? '  ' : shape === 1 ? '    ' : shape === 2 ? '      ' : '    ';
}

function handWritten(): string {
  const shape = int(4);
  const ind = indentFor(shape);
  const style = int(6);
  if (style === 0) {
    // double-quoted: escapes, escaped line breaks, folded breaks and empty lines
    const pieces = Array.from({ length: 1 + int(6) }, () => pick(['ab', 'c d', '\\"', '\\\\', '\\t', '\\u00e9', '\\x41', '\\U0001F600', '\\n', '\\ ', '\\/', '\\N', '\\_', 'x  ', ' y', '#z', "'"]));
    const seps = ['', ' ', `\\\n${ind}`, `\n${ind}`, `  \n\n${ind}`, `\n\n\n${ind}  `, ` \\\n\n${ind}`];
    return wrap(`"${pieces.map((p, i) => (i ? pick(seps) : '') + p).join('')}"`, shape);
  }
  if (style === 1) {
    const pieces = Array.from({ length: 1 + int(6) }, () => pick(['ab', "it''s", "''", 'c d', '\\n', '"q"', 'x ']));
    const seps = ['', ' ', `\n${ind}`, `\n\n${ind}`, `  \n${ind}  `];
    return wrap(`'${pieces.map((p, i) => (i ? pick(seps) : '') + p).join('')}'`, shape);
  }
  if (style === 2) {
    // plain, possibly over several lines
    const pieces = Array.from({ length: 1 + int(5) }, () => pick(['ab', 'c d', 'x.y:z', 'a#b', '(q)', 'é']));
    const seps = [' ', `\n${ind}`, `\n\n${ind}`, `  \n${ind}`];
    return wrap(pieces.map((p, i) => (i ? pick(seps) : '') + p).join('') + pick(['', ' # comment']), shape === 3 ? 1 : shape);
  }
  // block scalars: literal or folded, chomping and explicit indentation indicators
  const folded = style === 3;
  const chomp = pick(['', '-', '+']);
  const explicit = rand() < 0.4;
  const extra = explicit ? pick(['', ' ', '  ']) : '';
  const lines = Array.from({ length: 1 + int(5) }, (_, i) => (rand() < 0.2 && i > 0 ? '' : (i > 0 && rand() < 0.2 ? ' ' : '') + words(1 + int(3))));
  if (explicit) lines[0] = extra + lines[0];
  const body = lines.map((l) => (l === '' ? pick(['', ind.slice(2)]) : ind + l)).join('\n');
  const trailing = pick(['', '\n', `\n${ind}\n`]);
  const header = `${folded ? '>' : '|'}${explicit ? '2' : ''}${chomp}${rand() < 0.2 ? ' # header comment' : ''}`;
  const blockShape = shape === 3 ? 1 : shape;
  const keyIndent = blockShape === 0 ? '' : blockShape === 1 ? '  ' : '    ';
  const text = blockShape === 0 ? `q: ${header}\n` : blockShape === 1 ? `spec:\n  q: ${header}\n` : `list:\n  - q: ${header}\n`;
  return `${text}${body.replace(new RegExp(`^${ind}`, 'gm'), keyIndent + '  ')}\n${trailing}end: 1\n`;
}

function generated(): string {
  const value = rand() < 0.5 ? words(1 + int(8)) : multiLineValue();
  const type = pick(['PLAIN', 'QUOTE_SINGLE', 'QUOTE_DOUBLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'] as const);
  const doc = rand() < 0.5 ? { spec: { q: value, n: 1 } } : { list: [{ q: value }] };
  return stringify(doc, { defaultStringType: type, defaultKeyType: 'PLAIN', lineWidth: pick([0, 20, 40, 80]), minContentWidth: 0, indent: pick([2, 4]) });
}

function findQ(node: unknown): Node | undefined {
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      if (isScalar(pair.key) && pair.key.value === 'q' && isScalar(pair.value)) return pair.value;
      const inner = findQ(pair.value);
      if (inner) return inner;
    }
  }
  if (isSeq(node)) for (const item of node.items) {
    const inner = findQ(item);
    if (inner) return inner;
  }
  return undefined;
}

function producedBy(value: string, i: number, source: string, at: number): boolean {
  const s = source[at];
  const v = value[i]!;
  if (s === v) return true;
  if (s === '\\') return true; // an escape (its decoding is compared through the whole value)
  if ((v === ' ' || v === '\n') && (s === '\n' || s === '\r')) return true; // a folded or kept line break
  return false;
}

function checkSource(source: string, styles: Map<string, number>): boolean {
  const doc = parseDocument(source, { uniqueKeys: true });
  if (doc.errors.length) return false;
  const node = findQ(doc.contents);
  if (!node || !isScalar(node) || typeof node.value !== 'string' || !node.range) return false;
  styles.set(String(node.type), (styles.get(String(node.type)) ?? 0) + 1);
  const value = node.value;
  const sources = valueSources(source, node.range[0], value);
  assert.ok(sources, `not followed:\n${source}\nvalue ${JSON.stringify(value)}`);
  assert.equal(sources.length, value.length);
  for (let i = 0; i < value.length; i++) {
    assert.ok(producedBy(value, i, source, sources[i]!), `char ${i} ${JSON.stringify(value[i])} maps to ${JSON.stringify(source[sources[i]!])} at ${sources[i]} in:\n${source}`);
    if (i > 0) assert.ok(sources[i]! >= sources[i - 1]!, `sources go backwards at ${i} in:\n${source}`);
  }
  return true;
}

describe('scalar value offsets map back to the YAML source', () => {
  it('agrees with the yaml package on thousands of generated scalars of every style, LF and CRLF', () => {
    let checked = 0;
    const styles = new Map<string, number>();
    const total = 4000;
    for (let n = 0; n < total; n++) {
      let source = n % 2 === 0 ? handWritten() : generated();
      if (n % 5 === 0) source = source.replace(/\n/g, '\r\n');
      if (checkSource(source, styles)) checked++;
    }
    // Generated shapes that are not valid YAML are skipped; most must be checked.
    // Every style is exercised many times.
    for (const style of ['PLAIN', 'QUOTE_SINGLE', 'QUOTE_DOUBLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED']) assert.ok((styles.get(style) ?? 0) > 200, `${style}: ${styles.get(style)}`);
    assert.ok(checked > total * 0.8, `only ${checked} of ${total} shapes were valid YAML`);
  });

  it('follows escapes with the readers\' table, and gives up on one beyond Unicode instead of throwing', () => {
    assert.deepEqual(valueSources('"a\\x41\\u00e9\\U0001F600\\t"', 0, 'aAé😀\t'), [1, 2, 6, 12, 12, 22]);
    for (const escape of ['\\UFFFFFFFF', '\\x4', '\\q']) assert.equal(valueSources(`"${escape}"`, 0, 'x'), undefined, escape);
  });

  it('points at the character inside quoted and block strings', () => {
    const text = 'spec:\n  query: |\n    a:b and\n    (c:d\n';
    const start = text.indexOf('|');
    const value = 'a:b and\n(c:d\n';
    assert.equal(text[sourceOffsetInScalar(text, start, value.indexOf('('), value)!], '(');
    const dq = 'q: "x \\"y\\"\\\n   z"\n';
    assert.equal(dq[sourceOffsetInScalar(dq, 3, 5, 'x "y"z')!], 'z');
  });

  it('gives up when the value is not what the source says (interpolated), and maps the end past the last character', () => {
    const text = "q: 'a:b'\n";
    assert.equal(sourceOffsetInScalar(text, 3, 0, 'a:c'), undefined);
    assert.equal(sourceOffsetInScalar(text, 3, 3, 'a:b'), 7);
  });
});
