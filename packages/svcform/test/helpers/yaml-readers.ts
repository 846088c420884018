import assert from 'node:assert/strict';
import { keptDocumentPlaces, parseManifestText, type LoadedDoc } from '../../src/manifest/load.js';
import type { DocPath } from '../../src/manifest/types.js';
import { isLeft, parseFast } from '../../src/manifest/yaml-fast.js';

/** Every path of a value, and for each a child that does not exist (posOf answers with the nearest parent). */
export function pathsOf(value: unknown, path: DocPath = []): DocPath[] {
  const out: DocPath[] = [path, [...path, 'missing'], [...path, 99]];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...path, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...path, k]));
  return out;
}

/**
 * The fast reader and the full parser give the same documents, values, diagnostics and positions
 * for `text`; so do the places of one document read alone (keptDocumentPlaces: a file kept in the
 * manifest cache) when the fast reader took the whole file. Returns how many documents the fast
 * reader took itself.
 */
export function assertSameAsFullParser(text: string, name: string): number {
  const fast = parseManifestText(text, name);
  const full = parseManifestText(text, name, { fast: false });
  assert.deepEqual(fast.diagnostics, full.diagnostics, `${name}: diagnostics`);
  assert.equal(fast.docs.length, full.docs.length, `${name}: documents`);
  fast.docs.forEach((doc: LoadedDoc, i) => {
    const other = full.docs[i];
    assert.deepEqual(doc.value, other.value, `${name}: value of document ${i}\n${text}`);
    assert.deepEqual(doc.start, other.start, `${name}: start of document ${i}`);
    assert.equal(doc.index, other.index, `${name}: index of document ${i}`);
    for (const path of pathsOf(other.value)) assert.deepEqual(doc.posOf(path), other.posOf(path), `${name}: posOf ${JSON.stringify(path)}\n${text}`);
  });
  const fastDocs = parseFast(text)?.documents;
  if (fastDocs && fastDocs.every((d) => !isLeft(d))) {
    for (const [i, other] of full.docs.entries()) {
      const places = keptDocumentPlaces(text, name, other.index);
      assert.ok(places, `${name}: document ${other.index} read alone`);
      for (const path of pathsOf(other.value)) assert.deepEqual(places(path), other.posOf(path), `${name}: document ${i} read alone, posOf ${JSON.stringify(path)}\n${text}`);
    }
  }
  return parseFast(text)?.documents.filter((d) => !isLeft(d)).length ?? 0;
}
