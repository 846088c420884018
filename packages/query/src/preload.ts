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
        if (!isMissingLanguageModule(err, name)) throw err;
        READY.set(name, null);
      }
    }),
  );
}

/** The language if preloaded; null if its module is missing; undefined if nobody preloaded it. */
export function readyLanguage(name: QueryLanguageName): QueryLanguage | null | undefined {
  return READY.get(name);
}

/**
 * Whether loading failed because the language's own module is absent from this build (the module
 * -not-found code, naming that module): a missing dependency of a present module, or an error
 * inside one, is a defect and is not hidden.
 */
export function isMissingLanguageModule(err: unknown, name: QueryLanguageName): boolean {
  if ((err as NodeJS.ErrnoException | undefined)?.code !== 'ERR_MODULE_NOT_FOUND') return false;
  // Node says "Cannot find module '<missing>' imported from <importer>": only <missing> counts.
  const missing = /Cannot find module '([^']+)'/.exec(String((err as Error).message))?.[1] ?? '';
  return missing.replace(/\\/g, '/').endsWith(`/query/${name}/index.js`);
}
