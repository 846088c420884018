import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SharedTexts } from '../../src/kinds/shared-texts.js';

/**
 * A listed rule holds the manifest's string where both hold the same long text
 * (src/kinds/shared-texts.ts). Which of two equal strings is kept cannot be seen from JavaScript,
 * so the pool counts what it replaced; values never change.
 */
describe('texts shared between manifests and listed objects', () => {
  // Built at run time, so that the listed copy is another string than the manifest's.
  const guide = (n: number) => ['## Triage', ...Array.from({ length: n }, (_, i) => `- step ${i}: look at the process tree`)].join('\n');

  it('replaces a long field equal to an offered one, and nothing else', () => {
    const texts = new SharedTexts();
    texts.offer({ note: guide(20), description: 'short description', risk_score: 21, tags: [guide(20)] });
    const listed: Record<string, unknown> = { note: guide(20), setup: guide(21), description: 'short description', other: guide(20).toUpperCase() };
    const before = structuredClone(listed);
    texts.share(listed);
    assert.equal(texts.shared, 1);
    assert.deepEqual(listed, before);
  });

  it('shares a text offered under another field name (the value is what counts)', () => {
    const texts = new SharedTexts();
    texts.offer({ setup: guide(30) });
    const listed = { note: guide(30) };
    texts.share(listed);
    assert.equal(texts.shared, 1);
    assert.equal(listed.note, guide(30));
  });

  it('replaces nothing when nothing was offered, or when the texts differ by a character', () => {
    const texts = new SharedTexts();
    texts.share({ note: guide(20) });
    assert.equal(texts.shared, 0);
    texts.offer({ note: guide(20) });
    texts.share({ note: `${guide(20)} ` });
    assert.equal(texts.shared, 0);
  });
});
