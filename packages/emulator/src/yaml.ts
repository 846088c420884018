import { createRequire } from 'node:module';

type YamlPackage = typeof import('yaml');

let loaded: YamlPackage | undefined;

/**
 * The `yaml` package, loaded on first use: only the Fleet packages read from folders are YAML, and
 * a process that embeds the emulator (svcform's `--url embedded`) should not pay ~30 ms for it at
 * start-up. Loaded synchronously (its node entry point is CommonJS) so callers stay synchronous.
 */
export function yaml(): YamlPackage {
  return (loaded ??= createRequire(import.meta.url)('yaml') as YamlPackage);
}

/**
 * A parser's error in words: its first line, or the nesting when the stack ran out (the parser
 * recurses, and "Maximum call stack size exceeded" names no cause a package author can act on).
 */
export function parseErrorWords(err: unknown): string {
  if (err instanceof RangeError || /Maximum call stack/.test(String((err as Error)?.message ?? ''))) return 'the document nests too deeply to be read';
  return String((err as Error)?.message ?? err).split('\n')[0]!;
}
