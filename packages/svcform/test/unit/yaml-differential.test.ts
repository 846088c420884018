import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import { seededRandom } from '../../bench/generate.js';
import { realisticRule, realisticRuleYaml } from '../../bench/realistic.js';
import { assertSameAsFullParser } from '../helpers/yaml-readers.js';
import { isLeft, parseFast } from '../../src/manifest/yaml-fast.js';

/**
 * The fast YAML reader against the `yaml` package on a large generated corpus: realistic rule
 * files in both writing styles (long markdown guides with unicode and escaped quotes, multi-line
 * queries), random documents serialized with every scalar style and line width the `yaml`
 * package writes, and mutations of them (indentation shifted, blank lines with spaces, CRLF,
 * tabs, broken quotes). Whatever the reader takes, values, document starts and the position of
 * every value must be the full parser's; what it leaves, the answer is the full parser's anyway.
 */

const PIECES = ['a', 'b c', 'x: y', '#', ' # c', '"', "'", '\\', '\\n', '-', '- ', '? ', ':', '{', '}', '[', ']', ',', '&a', '*a', '!t', '|', '>', '%', '@', '`', 'é', '→', '日本', '😀', '\t', '  ', ' ', '1', '0x1F', 'true', 'null', '~', '.5', '---', '...', '\n', '\n\n', '\n  ', ' \n', 'word', 'longer words here'];

function randomString(rand: () => number): string {
  const n = 1 + Math.floor(rand() * 12);
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(rand() * PIECES.length)];
  return s;
}

function randomValue(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth > 3 || r < 0.45) {
    const k = rand();
    if (k < 0.7) return randomString(rand);
    if (k < 0.8) return Math.floor(rand() * 1000) - 500;
    if (k < 0.85) return rand() < 0.5;
    if (k < 0.9) return null;
    return rand() * 100;
  }
  if (r < 0.7) return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
  const out: Record<string, unknown> = {};
  for (let i = 0, n = 1 + Math.floor(rand() * 5); i < n; i++) out[rand() < 0.8 ? `k${i}_${Math.floor(rand() * 9)}` : randomString(rand)] = randomValue(rand, depth + 1);
  return out;
}

const STRING_TYPES = ['PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'] as const;

function randomDocument(rand: () => number): string {
  const value = { apiVersion: 'svcform/v1', kind: 'Rule', metadata: { name: `r${Math.floor(rand() * 1e6)}` }, spec: randomValue(rand, 0) };
  return stringify(value, {
    lineWidth: [0, 20, 40, 80][Math.floor(rand() * 4)],
    minContentWidth: Math.floor(rand() * 20),
    indent: rand() < 0.7 ? 2 : 4,
    indentSeq: rand() < 0.5,
    blockQuote: [true, false, 'literal', 'folded'][Math.floor(rand() * 4)] as boolean | 'literal' | 'folded',
    defaultStringType: STRING_TYPES[Math.floor(rand() * STRING_TYPES.length)],
    defaultKeyType: rand() < 0.2 ? 'QUOTE_DOUBLE' : null,
    doubleQuotedAsJSON: rand() < 0.2,
    doubleQuotedMinMultiLineLength: Math.floor(rand() * 60),
  });
}

/** Small edits of the kinds people make by hand, valid or not. */
function mutate(text: string, rand: () => number): string {
  const lines = text.split('\n');
  const i = Math.floor(rand() * lines.length);
  switch (Math.floor(rand() * 10)) {
    case 0:
      lines[i] = ' ' + lines[i];
      break;
    case 1:
      lines[i] = lines[i].replace(/^ /, '');
      break;
    case 2:
      lines.splice(i, 0, ' '.repeat(Math.floor(rand() * 8)));
      break;
    case 3:
      lines[i] = lines[i] + ' '.repeat(1 + Math.floor(rand() * 3));
      break;
    case 4:
      lines[i] = lines[i] + (rand() < 0.5 ? ' # note' : '\t');
      break;
    case 5:
      return lines.join('\r\n');
    case 6:
      lines.splice(i, 0, '# comment');
      break;
    case 7:
    case 8: {
      // A piece inside the line: as often inside a key (before its `: `) as anywhere.
      const colon = lines[i].indexOf(': ');
      const at = Math.floor(rand() * ((colon > 0 && rand() < 0.5 ? colon : lines[i].length) + 1));
      lines[i] = lines[i].slice(0, at) + PIECES[Math.floor(rand() * PIECES.length)] + lines[i].slice(at);
      break;
    }
    default:
      lines[i] = lines[i].replace(/["']/, '');
  }
  return lines.join('\n');
}

/**
 * A mapping with one block scalar of random shape: style, chomping and indentation indicator in
 * either order, leading and trailing empty lines, spaces-only lines shorter and longer than the
 * indentation, more-indented lines, tabs and `#` as content, and what follows it.
 */
function randomBlockScalar(rand: () => number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const outer = pick([0, 2]);
  const trim = outer + 1 + Math.floor(rand() * 3);
  const chomp = pick(['', '-', '+']);
  const explicit = rand() < 0.25 ? String(trim - outer) : '';
  const header = pick(['|', '>']) + (rand() < 0.5 ? chomp + explicit : explicit + chomp);
  const lines: string[] = [];
  for (let i = 0, n = 1 + Math.floor(rand() * 7); i < n; i++) {
    lines.push(
      pick([
        () => ' '.repeat(trim) + pick(['text', 'two words', '# not a comment', 'tab\there', 'trailing  ', 'é → 日本']),
        () => ' '.repeat(trim + 1 + Math.floor(rand() * 3)) + pick(['more', '- item', '\tx']),
        () => '',
        () => ' '.repeat(Math.floor(rand() * (trim + 3))),
      ])(),
    );
  }
  if (!lines.some((l) => l.trim() !== '')) lines.push(' '.repeat(trim) + 'text');
  const after = pick(['', '', `${' '.repeat(outer)}next: 1\n`, '---\nk: 2\n']);
  const body = `k: ${header}\n${lines.join('\n')}\n${pick(['', '\n', '  \n'])}${after}`;
  return outer ? `outer:\n  ${body.split('\n').join('\n  ').trimEnd()}\n` : body;
}

/** `total` documents from `generate` (seeded), each held to the full parser; how many the fast reader read. */
function compareGenerated(seed: number, total: number, name: string, generate: (rand: () => number) => string): number {
  const rand = seededRandom(seed);
  let fast = 0;
  for (let i = 0; i < total; i++) fast += assertSameAsFullParser(generate(rand), `${name}-${i}.yaml`);
  return fast;
}

describe('the fast YAML reader agrees with the yaml package on a generated corpus', () => {
  it('block scalars of every header, indentation and trailing-line shape', () => {
    const fast = compareGenerated(12, 3000, 'block', randomBlockScalar);
    assert.ok(fast > 1500, `${fast} of 3000 documents on the fast path`);
  });

  it('realistic rule files, both styles, multi-document: values and positions, nearly all on the fast path', () => {
    let docs = 0;
    let fast = 0;
    for (let f = 0; f < 12; f++) {
      const rules = Array.from({ length: 8 }, (_, i) => realisticRuleYaml(realisticRule(f * 8 + i, 3), f % 2 ? 'hand' : 'converter'));
      docs += rules.length;
      fast += assertSameAsFullParser(`# file ${f}\n` + rules.join('---\n'), `realistic-${f}.yaml`);
    }
    assert.equal(fast, docs, 'every realistic rule document is read by the fast reader');
  });

  it('random documents in every scalar style the yaml package writes', () => {
    const fast = compareGenerated(10, 1500, 'random', randomDocument);
    // Most of them are inside the subset (what falls back is compared all the same).
    assert.ok(fast > 900, `${fast} of 1500 documents on the fast path`);
  });

  it('mutated documents, valid or not, single and in multi-document files', () => {
    const rand = seededRandom(11);
    for (let i = 0; i < 1500; i++) {
      let text = rand() < 0.5 ? randomDocument(rand) : realisticRuleYaml(realisticRule(i, 5), rand() < 0.5 ? 'hand' : 'converter');
      for (let m = 0, n = 1 + Math.floor(rand() * 3); m < n; m++) text = mutate(text, rand);
      if (rand() < 0.3) text = `${randomDocument(rand)}---\n${text}\n---\n${randomDocument(rand)}`;
      assertSameAsFullParser(text, `mutated-${i}.yaml`);
    }
  });

  it('a file with one document outside the subset reads the others fast (per-document fallback)', () => {
    const good = realisticRuleYaml(realisticRule(1), 'hand');
    const text = `${good}---\nkind: Rule\nanchored: &a {x: 1}\nagain: *a\n---\n${good.replace('real-00001', 'real-00002')}`;
    const parsed = parseFast(text)!;
    assert.deepEqual(parsed.documents.map((d) => isLeft(d)), [false, true, false]);
    assertSameAsFullParser(text, 'mixed.yaml');
  });
});
