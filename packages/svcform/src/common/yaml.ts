import { createRequire } from 'node:module';

type YamlPackage = typeof import('yaml');

let loaded: YamlPackage | undefined;

/**
 * The `yaml` package, loaded on first use. Loading it costs about 30 ms at start-up, and most runs
 * never need it: manifests go through the fast reader (manifest/yaml-fast.ts), and an empty plan
 * prints no YAML. Loaded synchronously (its node entry point is CommonJS) so that callers stay
 * synchronous; it is the same module instance an `import 'yaml'` gets.
 */
export function yaml(): YamlPackage {
  return (loaded ??= createRequire(import.meta.url)('yaml') as YamlPackage);
}

/**
 * What every reader of YAML or JSON says when a text nests deeper than the parser's stack: the
 * parsers recurse, so the limit is the stack's, not a fixed number, and the engine's "Maximum
 * call stack size exceeded" names no cause a person can act on.
 */
export const NESTS_TOO_DEEPLY = 'the document nests too deeply to be read';

/** Whether a parser's error is the stack running out on a deeply nested text. */
export function nestsTooDeeply(err: unknown): boolean {
  return err instanceof RangeError || /Maximum call stack/.test(String((err as Error)?.message ?? ''));
}

/** A parser's error in words: the nesting when that is what failed, else its first line. */
export function parseErrorWords(err: unknown): string {
  return nestsTooDeeply(err) ? NESTS_TOO_DEEPLY : String((err as Error)?.message ?? err).split('\n')[0]!;
}
