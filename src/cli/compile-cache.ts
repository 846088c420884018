import { existsSync, utimesSync } from 'node:fs';
import module from 'node:module';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { buildId } from '../common/build-id.js';
import { pruneOtherBuilds } from '../common/disk-cache.js';

/**
 * Node's module compile cache (`module.enableCompileCache`, Node 22.1 and later): V8's compiled
 * code of each module a run loads is kept on disk, and the next run loads it instead of parsing
 * and compiling the ~150 modules of a command again. main.ts turns it on before it imports the
 * program; Node 20 and 22.0 have no such cache and run as before.
 *
 * Where: `svcform/compile-cache/<build id>` in the user's cache directory (XDG_CACHE_HOME, else
 * LOCALAPPDATA on Windows, else ~/.cache). Per user, because a code cache is code: one in a
 * directory another user can write (Node's default is os.tmpdir()/node-compile-cache) would run
 * what that user put there. Per build, so builds never share entries; Node itself files them
 * further by its version and V8 flags, and checks each against its module's source. Directories
 * of other builds untouched for a week are removed when a new build first runs.
 *
 * NODE_COMPILE_CACHE, when set, names the directory instead (Node enabled it before svcform
 * started); NODE_DISABLE_COMPILE_CACHE=1 turns it off. It never fails a run: Node reports an
 * unwritable directory in its result instead of throwing, and svcform says nothing of it.
 */

/** What enabling did: Node's status, or why it was not asked. */
export type CompileCacheUse = 'enabled' | 'already-enabled' | 'disabled' | 'failed' | 'unavailable' | 'no-directory';

/** The directory of this build's compile cache, or undefined with no build id or no cache base. */
export function compileCacheDirectory(env: NodeJS.ProcessEnv, home: () => string = homedir, platform: NodeJS.Platform = process.platform): string | undefined {
  const build = buildId();
  if (!build) return undefined;
  const chosen = [env.XDG_CACHE_HOME, platform === 'win32' ? env.LOCALAPPDATA : undefined].find((d) => d && isAbsolute(d));
  const base = chosen ?? (home() ? join(home(), '.cache') : undefined);
  return base ? join(base, 'svcform', 'compile-cache', build) : undefined;
}

interface CompileCacheApi {
  enableCompileCache?: (dir?: string) => { status: number };
  constants?: { compileCacheStatus?: Record<'FAILED' | 'ENABLED' | 'ALREADY_ENABLED' | 'DISABLED', number> };
}

/** Turns Node's compile cache on for the modules loaded from now on, where Node has one. Never throws. */
export function enableCompileCache(env: NodeJS.ProcessEnv, api: CompileCacheApi = module as CompileCacheApi): CompileCacheUse {
  const statuses = api.constants?.compileCacheStatus;
  if (typeof api.enableCompileCache !== 'function' || !statuses) return 'unavailable';
  try {
    let dir: string | undefined;
    if (!env.NODE_COMPILE_CACHE) {
      dir = compileCacheDirectory(env);
      if (!dir) return 'no-directory';
    }
    const fresh = dir !== undefined && !existsSync(dir);
    const { status } = api.enableCompileCache(dir);
    if (status === statuses.ENABLED && dir) housekeeping(dir, fresh);
    if (status === statuses.ENABLED) return 'enabled';
    if (status === statuses.ALREADY_ENABLED) return 'already-enabled';
    if (status === statuses.DISABLED) return 'disabled';
    return 'failed';
  } catch {
    return 'failed';
  }
}

/** The first run of a build clears what older builds left; later runs mark this build's as in use. */
function housekeeping(dir: string, fresh: boolean): void {
  try {
    if (fresh) pruneOtherBuilds(dirname(dir), buildId()!);
    else utimesSync(dir, new Date(), new Date());
  } catch {
    // Housekeeping only: the cache works without it.
  }
}
