// Writes dist/src/build-id.json: a hash of everything the build put under dist/src (compiled code,
// generated parsers, compiled validators) and under the dist/src of the workspace packages svcform
// runs (the query languages decide findings; the emulator answers --url embedded). Results svcform keeps on disk between runs
// (src/common/disk-cache.ts) are filed under it, so no build ever reads what another computed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const ROOT = 'dist/src';

function filesUnder(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

const require = createRequire(import.meta.url);
const hash = createHash('sha256');
for (const [name, root] of [['svcform', ROOT], ...['@svcform/query', '@svcform/emulator'].map((name) => [name, join(dirname(require.resolve(`${name}/package.json`)), 'dist/src')])]) {
  for (const file of filesUnder(root)) {
    if (file.endsWith('.map') || file.endsWith('.d.ts') || file.endsWith('build-id.json')) continue;
    hash.update(name).update('\0').update(relative(root, file).replace(/\\/g, '/')).update('\0').update(readFileSync(file)).update('\0');
  }
}
const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
writeFileSync(join(ROOT, 'build-id.json'), `${JSON.stringify({ version, id: hash.digest('hex').slice(0, 16) })}\n`);
