import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import { seededRandom } from '../../bench/generate.js';
import { readManifestText, type LoadedDoc } from '../../src/manifest/load.js';
import { orderedByValue, noteValuePlace, valueOrder, type ValuePlace } from '../../src/manifest/finding-order.js';
import type { Diagnostic, DocPath, SourcePos } from '../../src/manifest/types.js';

/**
 * The order of findings told from where they are in a document's value must be the order their
 * lines and columns give, wherever it is told at all: held here to the places the reader gives,
 * over random documents in every style the `yaml` package writes, integer-like keys among them.
 */

const KEYS = ['name', 'query', 'b', 'a', 'z_last', '0', '1', '2', '10', '007', '-1', '1.5', 'key with space', 'é', '4294967295', '4294967294'];
const STRINGS = ['x', 'two words', 'event.code:"4625" and ${CMD}', 'line one\nline two\n', 'a "quoted" one', "it's", 'tab\there', '  lead', 'trail  ', '', 'é → 日本', '#hash', 'k: v', '- item', '123', 'true'];

function randomValue(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth > 3 || r < 0.35) {
    const k = rand();
    if (k < 0.75) return STRINGS[Math.floor(rand() * STRINGS.length)]!.repeat(1 + Math.floor(rand() * 3));
    if (k < 0.85) return Math.floor(rand() * 100);
    if (k < 0.92) return null;
    return rand() < 0.5;
  }
  if (r < 0.6) return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
  // A Map is written in its own order: integer-like keys may come after others in the text, where
  // an object read from it puts them first.
  const out = new Map<string, unknown>();
  for (let i = 0, n = 1 + Math.floor(rand() * 5); i < n; i++) out.set(KEYS[Math.floor(rand() * KEYS.length)]!, randomValue(rand, depth + 1));
  return out;
}

const STYLES = [{}, { flowLevel: 2 }, { flowLevel: 1, lineWidth: 0 }, { defaultStringType: 'QUOTE_DOUBLE' as const }, { defaultStringType: 'BLOCK_LITERAL' as const }, { defaultStringType: 'QUOTE_SINGLE' as const, indentSeq: false }, { defaultStringType: 'BLOCK_FOLDED' as const, lineWidth: 20 }];

/** Every place in `value`: each path, strings at a few offsets, and a few paths that are not there. */
function placesIn(value: unknown, rand: () => number): ValuePlace[] {
  const out: ValuePlace[] = [];
  const walk = (v: unknown, path: DocPath) => {
    out.push({ path });
    if (typeof v === 'string') for (const offset of [0, Math.floor(v.length / 2), v.length, v.length + 3]) out.push({ path, offset });
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(value, []);
  const missing = out.slice(0, 3).map((p) => ({ path: [...p.path, rand() < 0.5 ? 'absent' : 99] }));
  return [...out, ...missing].sort(() => rand() - 0.5).slice(0, 40);
}

function placeOf(doc: LoadedDoc, p: ValuePlace): SourcePos {
  let node: any = doc.value;
  for (const step of p.path) node = node?.[step];
  return (p.offset !== undefined && typeof node === 'string' && doc.posInScalar(p.path, p.offset, node)) || doc.posOf(p.path);
}

const byLine = (a: SourcePos, b: SourcePos) => a.line - b.line || a.col - b.col;

describe('findings ordered by where they are in the value', () => {
  it('orders two places as their lines and columns do, wherever it orders them', () => {
    const rand = seededRandom(29);
    let told = 0;
    let pairs = 0;
    for (let n = 0; n < 240; n++) {
      const value = { apiVersion: 'svcform/v1', kind: 'Rule', metadata: { name: `r${n}` }, spec: randomValue(rand, 0) };
      const text = stringify(value, STYLES[n % STYLES.length]);
      const read = readManifestText(text, 'r.yaml');
      if (!read.allFast || read.docs.length !== 1) continue;
      const doc = read.docs[0]!;
      const places = placesIn(doc.value, rand);
      for (let i = 0; i < places.length; i++) {
        for (let j = 0; j < places.length; j++) {
          pairs++;
          const order = valueOrder(doc.value, places[i]!, places[j]!);
          if (order === undefined) continue;
          told++;
          const lines = byLine(placeOf(doc, places[i]!), placeOf(doc, places[j]!));
          assert.equal(Math.sign(order), Math.sign(lines), `${text}\n${JSON.stringify(places[i])} against ${JSON.stringify(places[j])}`);
        }
      }
    }
    assert.ok(told > pairs / 2, `told ${told} of ${pairs} pairs`);
  });

  it('sorts and drops repeats as sorting by place does, or leaves it to the places', () => {
    const rand = seededRandom(7);
    let ordered = 0;
    for (let n = 0; n < 480; n++) {
      const value = { apiVersion: 'svcform/v1', kind: 'Rule', metadata: { name: `r${n}` }, spec: randomValue(rand, 0) };
      const read = readManifestText(stringify(value, STYLES[n % STYLES.length]), 'r.yaml');
      if (!read.allFast || read.docs.length !== 1) continue;
      const doc = read.docs[0]!;
      const places = placesIn(doc.value, rand).slice(0, 2 + Math.floor(rand() * 4));
      // Some findings say the same at the same place (fan-out copies do).
      const found: Diagnostic[] = places.flatMap((p, i) => {
        const d = { severity: 'warning' as const, subject: 'Rule/r', message: `finding ${i % 3}`, pos: placeOf(doc, p) };
        noteValuePlace(d, p);
        return rand() < 0.2 ? [d, { ...d }].map((x) => (noteValuePlace(x, p), x)) : [d];
      });
      const got = orderedByValue([...found], doc.value);
      if (!got) continue;
      ordered++;
      const seen = new Set<string>();
      const expected = [...found].sort((a, b) => byLine(a.pos, b.pos)).filter((d) => {
        const key = `${d.pos.line}:${d.pos.col}\u0000${d.message}`;
        return !seen.has(key) && !!seen.add(key);
      });
      assert.deepEqual(got.map((d) => [d.message, d.pos]), expected.map((d) => [d.message, d.pos]));
    }
    assert.ok(ordered > 40, `ordered ${ordered}`);
  });

  it('leaves unmarked values, and findings with places of their own, to the places', () => {
    const doc = readManifestText('spec:\n  a: x\n  b: y\n', 'r.yaml').docs[0]!;
    const at = (path: DocPath): Diagnostic => {
      const d = { severity: 'warning' as const, message: path.join('.'), pos: doc.posOf(path) };
      noteValuePlace(d, { path });
      return d;
    };
    assert.deepEqual(orderedByValue([at(['spec', 'b']), at(['spec', 'a'])], doc.value)?.map((d) => d.message), ['spec.a', 'spec.b']);
    assert.equal(orderedByValue([at(['spec', 'b']), at(['spec', 'a'])], structuredClone(doc.value)), undefined);
    assert.equal(orderedByValue([at(['spec', 'b']), { severity: 'warning', message: 'placed', pos: doc.posOf(['spec']) }], doc.value), undefined);
    assert.equal(valueOrder(doc.value, { path: ['spec'] }, { path: ['spec', 'a'] }), undefined, 'one within the other');
    assert.equal(valueOrder(doc.value, { path: ['spec', 'a'], offset: 0 }, { path: ['spec', 'a'], offset: 1 }), undefined, 'two offsets of one string');
  });
});
