import type { QueryLanguage, QueryLanguageName } from './types.js';

/**
 * The parser and evaluator of a language, loaded on first use: a command that never looks at a
 * query (plan against a URL, say) never loads a grammar.
 */
const LOADED = new Map<QueryLanguageName, Promise<QueryLanguage>>();

export const QUERY_LANGUAGES: readonly QueryLanguageName[] = ['kuery', 'lucene', 'eql', 'qlang'];

export function isQueryLanguage(name: unknown): name is QueryLanguageName {
  return typeof name === 'string' && (QUERY_LANGUAGES as readonly string[]).includes(name);
}

export function loadLanguage(name: QueryLanguageName): Promise<QueryLanguage> {
  let loading = LOADED.get(name);
  if (!loading) {
    loading = import(`./${name}/index.js`).then((module: { language: QueryLanguage }) => module.language);
    LOADED.set(name, loading);
  }
  return loading;
}
