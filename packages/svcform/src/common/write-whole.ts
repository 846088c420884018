import { renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Writes `content()` to `path` whole: into a temporary file beside it, renamed into place, so
 * that a run reading meanwhile, or two runs writing at once, see one whole file, never a mix or
 * a part. False when it could not (a read-only folder, content that cannot be made); what the
 * caches keep is never worth failing a run for.
 */
export function writeWhole(path: string, content: () => string | NodeJS.ArrayBufferView): boolean {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temporary, content());
    renameSync(temporary, path);
    return true;
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // A folder that refuses even this is left as it is.
    }
    return false;
  }
}
