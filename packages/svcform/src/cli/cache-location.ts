import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { userCacheHome } from '../common/user-cache.js';

/**
 * Where results kept between runs go (src/common/disk-cache.ts): the documents of every manifest
 * file under the SHA-256 of its bytes, the findings of queries, which documents passed their checks.
 * A run takes what it finds there for its own results: a manifest file's documents come from the
 * cache, not from the file. So the cache is never read inside the repository's checkout, where a
 * pull request could commit entries: a plan and an apply would then send documents no manifest
 * shows. By default it is svcform's folder of the user's cache directory (user-cache.ts), one
 * folder per repository root; SVCFORM_CACHE_DIR chooses another (a CI job keeps it between jobs),
 * and one inside the checkout is not used, with a notice that says so; --no-cache: none.
 */
export interface CacheLocation {
  /** The cache directory, or undefined: no cache this run. */
  dir?: string;
  /** Why SVCFORM_CACHE_DIR is not used (printed once per command). */
  notice?: string;
  /** The default location: one repository root's folder beside the others' (DiskCache prunes those unused). */
  amongRoots?: boolean;
}

export function cacheLocation(opts: { cache?: boolean }, root: string, env: NodeJS.ProcessEnv): CacheLocation {
  if (opts.cache === false) return {};
  const chosen = env.SVCFORM_CACHE_DIR;
  if (!chosen) {
    const home = userCacheHome(env);
    return home ? { dir: join(home, 'projects', createHash('sha256').update(resolve(root)).digest('hex').slice(0, 16)), amongRoots: true } : {};
  }
  const dir = resolve(chosen);
  const checkout = checkoutOf(root);
  if (!isWithin(realPath(dir), realPath(checkout))) return { dir };
  return {
    notice: `SVCFORM_CACHE_DIR (${dir}) is inside the checkout ${checkout}: not used, since a commit could put entries there that svcform would take for its own results; unset it to keep the cache in the user cache directory, or set it outside the checkout`,
  };
}

/** The top of the Git work tree holding `root` (the nearest folder up with a .git), else `root`. */
function checkoutOf(root: string): string {
  const start = resolve(root);
  for (let at = start; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return start;
  }
}

/** The real path of `path`, or of its nearest existing folder with the rest appended. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPath(parent), path.slice(parent.length));
  }
}

function isWithin(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}
