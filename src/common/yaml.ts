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
