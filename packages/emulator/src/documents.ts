import type { Store } from './store.js';
import type { EmuResponse } from './router.js';
import { starPattern, wildcardMatcher } from '@svcform/query/regex/wildcard.js';

/**
 * Source documents for rule previews. The real server previews a rule against the documents of
 * its search backend; the emulator has none, so tests and users load them through the control
 * routes (not part of the API):
 *
 * - `POST /__emulator/documents` `{"index": "logs-endpoint", "documents": [{...}, ...]}` appends
 *   documents to an index (each gets an `_id` unless it has a string one);
 * - `GET /__emulator/documents` counts documents per index;
 * - `DELETE /__emulator/documents[?index=NAME]` empties one index, or all.
 *
 * Indices are not space-scoped, as in the search backend. A reset empties them too.
 */

export interface StoredDocument {
  _id: string;
  _index: string;
  _source: Record<string, unknown>;
}

type Indices = Record<string, StoredDocument[]>;

const INDEX_NAME = /^[a-z0-9][a-z0-9._-]*$/;

function indices(store: Store): Indices {
  return store.global<Indices>('documents', () => ({}));
}

/** Documents of every index whose name one of the patterns matches (`*` wildcards, `-pattern` excludes). */
export function documentsMatching(store: Store, patterns: string[]): StoredDocument[] {
  // Matched without backtracking: a name pattern with many stars must not stall the server.
  const toRegex = (p: string) => wildcardMatcher(starPattern(p), false);
  const include = patterns.filter((p) => !p.startsWith('-')).map(toRegex);
  const exclude = patterns.filter((p) => p.startsWith('-')).map((p) => toRegex(p.slice(1)));
  const out: StoredDocument[] = [];
  for (const [name, docs] of Object.entries(indices(store))) {
    if (include.some((r) => r.test(name)) && !exclude.some((r) => r.test(name))) out.push(...docs);
  }
  return out;
}

export function handleDocumentsControl(method: string, url: URL, body: any, store: Store): EmuResponse {
  const all = indices(store);
  if (method === 'GET') {
    return { body: { indices: Object.fromEntries(Object.entries(all).map(([name, docs]) => [name, docs.length])) } };
  }
  if (method === 'DELETE') {
    const index = url.searchParams.get('index');
    if (index === null) for (const name of Object.keys(all)) delete all[name];
    else delete all[index];
    store.touch();
    return { body: { deleted: index ?? 'all' } };
  }
  if (method !== 'POST') return { status: 404, body: { error: `no control route ${method} /documents` } };
  const index = body?.index;
  const documents = body?.documents;
  if (typeof index !== 'string' || !INDEX_NAME.test(index)) return { status: 400, body: { error: 'index must be a lowercase index name ([a-z0-9._-], not starting with . _ or -)' } };
  if (!Array.isArray(documents) || !documents.every((d) => typeof d === 'object' && d !== null && !Array.isArray(d))) {
    return { status: 400, body: { error: 'documents must be an array of objects' } };
  }
  const list = (all[index] ??= []);
  for (const doc of documents as Array<Record<string, unknown>>) {
    const { _id, ...source } = doc;
    list.push({ _id: typeof _id === 'string' && _id !== '' ? _id : `${index}-${store.nextSeq()}`, _index: index, _source: source });
  }
  store.touch();
  return { body: { index, count: list.length } };
}
