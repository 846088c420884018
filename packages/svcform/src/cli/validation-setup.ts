import { DiskCache } from '../common/disk-cache.js';
import { saveQueryFacts, useQueryFactsCache } from '../kinds/rule/query-facts.js';
import { KIND_CATALOG } from '../kinds/registry.js';
import { ManifestCache } from '../manifest/manifest-cache.js';
import type { ValidateOptions } from '../manifest/validate.js';
import { preloadLanguages } from '@svcform/query/preload.js';
import type { SvcformConfig } from './config.js';
import { cacheLocation } from './cache-location.js';
import { defaultSpace, rootOf, type CommonOptions, type Io } from './context.js';
import { readProjectFields } from './field-lists.js';

export interface ValidationSetup {
  /** What validation takes: default space, environment, kinds, root, --strict, the project's fields, the documents kept between runs. */
  options: ValidateOptions;
  /**
   * Once validation's findings are shown (a finding's place is worked out when shown): keeps the
   * query facts this run added and the places in cached documents the findings asked for
   * (kept-positions.ts); --verbose says what was parsed and what came from the cache.
   */
  finish(): void;
  /**
   * Once a plan is shown: keeps the places in cached documents its messages asked for;
   * --verbose says how many files were parsed again for places in all.
   */
  finishPlan(): void;
}

/**
 * What every command that validates manifests (validate, test, plan, apply) sets up around it.
 * The query languages are loaded (validation's checks run synchronously), and the cache of query
 * facts and manifest documents is opened (cache-location.ts; none with --no-cache);
 * `keepManifests` false only reads documents kept by earlier runs (apply).
 */
export async function setUpValidation(opts: CommonOptions & { strict?: boolean }, config: SvcformConfig, io: Io, keepManifests = true): Promise<ValidationSetup> {
  const root = rootOf(opts, config);
  const location = cacheLocation(opts, root, io.env);
  if (location.notice) io.err(`svcform: ${location.notice}`);
  const cache = DiskCache.open(location.dir, location);
  await preloadLanguages();
  useQueryFactsCache(cache);
  const manifestCache = cache && new ManifestCache(cache, keepManifests);
  return {
    options: { defaultSpace: defaultSpace(opts, config), env: io.env, kinds: KIND_CATALOG, root, strict: !!opts.strict, projectFields: readProjectFields(config, root), checks: config.checks, manifestCache, missingReferences: config.references?.missing, ...(config.environment ? { environment: { environment: config.environment.name, overlays: config.environment.overlays } } : {}) },
    finish() {
      manifestCache?.keepPositions();
      const { parsed, reused } = saveQueryFacts();
      if (!opts.verbose) return;
      if (parsed + reused > 0) io.err(`checked ${parsed + reused} queries: ${parsed} parsed, ${reused} known from the cache or an identical query`);
      if (manifestCache) io.err(`manifest files: ${manifestCache.counts.parsed} parsed, ${manifestCache.counts.kept} read from the cache; ${manifestCache.counts.knownClean} documents' checks skipped (known from before); ${manifestCache.counts.reparsed} files parsed again for positions`);
      if (manifestCache?.counts.sameStat) io.err(`of those read from the cache, ${manifestCache.counts.sameStat} files not read at all: their stat is as when last read`);
    },
    finishPlan() {
      manifestCache?.keepPositions();
      if (opts.verbose && manifestCache) io.err(`after the plan: ${manifestCache.counts.reparsed} files parsed again for positions in all`);
    },
  };
}
