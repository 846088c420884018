import { loadLanguage, QUERY_LANGUAGES } from './languages.js';
import type { QueryLanguage, QueryLanguageName } from './types.js';

/**
 * Languages loaded ahead of a synchronous step (validation's kind checks run synchronously): the
 * CLI awaits preloadLanguages(), then checks read readyLanguage(). `null` marks a language whose
 * module is not part of this build: its queries are not checked.
 */
const READY = new Map<QueryLanguageName, QueryLanguage | null>();

export async function preloadLanguages(names: readonly QueryLanguageName[] = QUERY_LANGUAGES): Promise<void> {
  await Promise.all(
    names.map(async (name) => {
      if (READY.has(name)) return;
      try {
        READY.set(name, await loadLanguage(name));
      } catch (err) {
        // Only a missing module means "not available"; any other failure is a defect to show.
        const missing = (err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && (err as Error).message.includes(`/${name}/index.js`);
        if (!missing) throw err;
        READY.set(name, null);
      }
    }),
  );
}

/** The language if preloaded; null if its module is missing; undefined if nobody preloaded it. */
export function readyLanguage(name: QueryLanguageName): QueryLanguage | null | undefined {
  return READY.get(name);
}
