import assert from 'node:assert/strict';

/**
 * What holds a hand-written query reader (src/<language>/fast.ts) to its grammar's generated
 * parser: the same tree wherever the grammar accepts a query, and no answer wherever it refuses one
 * or raises its own error, over a corpus and seeded edits of it.
 */

/** A repeatable stream of numbers in [0, 1) from a seed (mulberry32): the same edits on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A truncation, a deletion of one to four characters, or an insertion of one of `inserts`. */
function edit(text: string, rand: () => number, inserts: string[]): string {
  const at = Math.floor(rand() * (text.length + 1));
  switch (Math.floor(rand() * 4)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(rand() * 4));
    default:
      return text.slice(0, at) + inserts[Math.floor(rand() * inserts.length)] + text.slice(at);
  }
}

/** The generated parser's tree; undefined where it refuses the text; any other error it throws. */
function grammarTree(grammar: (text: string, options: object) => unknown, text: string): unknown {
  try {
    return grammar(text, {});
  } catch (err) {
    if ((err as { location?: unknown }).location) return undefined;
    return err;
  }
}

export interface Differential {
  /** Queries as they are; each also gets one to three seeded edits `edits` times over. */
  base: string[];
  inserts: string[];
  edits: number;
  read: (text: string) => unknown;
  grammar: (text: string, options: object) => unknown;
  /**
   * Queries the reader may leave to the grammar although the grammar accepts them (constructs the
   * reader does not read, named by what the grammar built); by default none.
   */
  leftToGrammar?: (tree: unknown, text: string) => boolean;
}

/** Asserts the reader follows the grammar over the corpus; how many queries the grammar accepted, of how many. */
export function assertReaderFollowsGrammar({ base, inserts, edits, read, grammar, leftToGrammar }: Differential): { accepted: number; total: number } {
  const rand = seededRandom(20261123);
  const corpus = [...base];
  for (let i = 0; i < edits; i++) {
    let text = base[Math.floor(rand() * base.length)];
    for (let n = 1 + Math.floor(rand() * 3); n > 0; n--) text = edit(text, rand, inserts);
    corpus.push(text);
  }
  let accepted = 0;
  for (const text of corpus) {
    const expected = grammarTree(grammar, text);
    const tree = read(text);
    if (expected === undefined || expected instanceof Error) {
      assert.equal(tree, undefined, `the reader accepted what the grammar refuses: ${JSON.stringify(text)}`);
      continue;
    }
    accepted++;
    if (tree === undefined && leftToGrammar?.(expected, text)) continue;
    // Everything else the grammar accepts is read: a reader that gave up on some would only be slower, and this says so.
    assert.notEqual(tree, undefined, `the reader left to the grammar: ${JSON.stringify(text)}`);
    if (JSON.stringify(tree) !== JSON.stringify(expected)) assert.deepStrictEqual(tree, expected, JSON.stringify(text));
  }
  return { accepted, total: corpus.length };
}
