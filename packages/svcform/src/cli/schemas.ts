import { copyFileSync, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeDirectory } from '../common/make-directory.js';
import { adapterFor, knownKinds } from '../kinds/registry.js';
import { packageRoot } from '../manifest/schema.js';
import { UsageError, type Io } from './context.js';

/** The repository every package.json address (repository, homepage, bugs) names. */
export const PROJECT_REPOSITORY = 'svcform/svcform';

/**
 * Where the schemas of a release can be fetched from, for modelines that must work on any machine:
 * the `schemas/` folder of that release's tag. A path into the installed package would name one
 * machine's global prefix, which means nothing in a repository other people check out.
 */
export function releaseSchemaUrl(version: string): string {
  return `https://raw.githubusercontent.com/${PROJECT_REPOSITORY}/v${version}/schemas`;
}

/** `Rule.schema.json` and the others, one per kind. */
export function schemaFiles(): string[] {
  return knownKinds().map((kind) => adapterFor(kind)!.schema);
}

export interface SchemasCommandOptions {
  out: string;
  quiet?: boolean;
  verbose?: boolean;
}

/**
 * `svcform schemas --out DIR`: copies the JSON Schema of every kind into DIR, so that a repository
 * can keep them beside its manifests (and `export --schemas DIR` can point modelines at them).
 */
export function schemasCommand(opts: SchemasCommandOptions, io: Io): number {
  const dir = resolve(opts.out);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`--out ${opts.out} exists and is not a directory`);
  makeDirectory(dir);
  const from = join(packageRoot(), 'schemas');
  const files = schemaFiles();
  for (const file of files) {
    copyFileSync(join(from, file), join(dir, file));
    if (opts.verbose) io.err(`wrote ${join(opts.out, file)}`);
  }
  if (!opts.quiet) io.err(`Wrote ${files.length} schemas to ${opts.out}; point modelines at them with: # yaml-language-server: $schema=<relative path>/<Kind>.schema.json`);
  return 0;
}

/**
 * Where `export` points its modelines: `--schemas DIR` (relative to each file; the directory must
 * hold the schemas, as `svcform schemas --out DIR` writes them), else the release's URL.
 */
export function exportSchemaLocation(schemasDir: string | undefined, version: string): { schemaDir: string } | { schemaBaseUrl: string } {
  if (schemasDir === undefined) return { schemaBaseUrl: releaseSchemaUrl(version) };
  const dir = resolve(schemasDir);
  const missing = schemaFiles().filter((f) => !existsSync(join(dir, f)));
  if (missing.length) throw new UsageError(`--schemas ${schemasDir} lacks ${missing.join(', ')}: write them first with: svcform schemas --out ${schemasDir}`);
  return { schemaDir: dir };
}
