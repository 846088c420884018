import type { Resource } from '../../src/manifest/types.js';

/** A Resource as the loader would produce it, for adapter tests that do not go through YAML. */
export function resource(kind: string, name: string, spec: Record<string, any>, options: { space?: string; ignore?: string[]; secretPointers?: string[]; dir?: string; root?: string } = {}): Resource {
  const source = { file: `${kind}-${name}.yaml`, line: 1, col: 1 };
  return {
    apiVersion: 'svcform/v1',
    kind,
    name,
    space: options.space ?? 'default',
    labels: {},
    ignore: options.ignore ?? [],
    spec,
    source,
    posOf: () => source,
    secretPointers: new Set(options.secretPointers ?? []),
    dir: options.dir ?? '.',
    root: options.root ?? options.dir ?? '.',
  };
}
