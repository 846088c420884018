import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * svcform's folder in the user's cache directory, by the platform's convention: $XDG_CACHE_HOME
 * (else ~/.cache) on Linux and the other Unixes, ~/Library/Caches on macOS, %LOCALAPPDATA% on
 * Windows; undefined when there is none (no home). What svcform keeps between runs goes there,
 * never into the repository: a commit could bring files there that a run would take for its own
 * results (the documents a plan applies, compiled code).
 */
export function userCacheHome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, home: string = env.HOME || safeHomedir()): string | undefined {
  let base: string | undefined;
  if (platform === 'win32') base = env.LOCALAPPDATA;
  else if (platform === 'darwin') base = home && join(home, 'Library', 'Caches');
  else base = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : home && join(home, '.cache');
  return base && isAbsolute(base) ? join(base, 'svcform') : undefined;
}

function safeHomedir(): string {
  try {
    return homedir();
  } catch {
    return '';
  }
}
