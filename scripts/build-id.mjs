// Writes dist/src/build-id.json: a hash of everything the build put under dist/src (compiled code,
// generated parsers, compiled validators). Results svcform keeps on disk between runs
// (src/common/disk-cache.ts) are filed under it, so no build ever reads what another computed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = 'dist/src';

function filesUnder(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

const hash = createHash('sha256');
for (const file of filesUnder(ROOT)) {
  if (file.endsWith('.map') || file.endsWith('.d.ts')) continue;
  hash.update(relative(ROOT, file).replace(/\\/g, '/')).update('\0').update(readFileSync(file)).update('\0');
}
const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
writeFileSync(join(ROOT, 'build-id.json'), `${JSON.stringify({ version, id: hash.digest('hex').slice(0, 16) })}\n`);
