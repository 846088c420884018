/**
 * `*` globs over names (`--select Kind/soc-*`, an environment overlay's `name:`): `*` matches any
 * run of characters, everything else itself. One implementation for every selector of the CLI.
 */
export function globToRegExp(glob: string, flags = ''): RegExp {
  return new RegExp('^' + glob.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$', 's' + flags);
}
