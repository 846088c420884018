// Removes every package's build output, so files whose sources were renamed or deleted can never
// be run as tests or shipped in a package.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

rmSync('dist', { recursive: true, force: true });
for (const name of readdirSync('packages')) {
  rmSync(join('packages', name, 'dist'), { recursive: true, force: true });
  rmSync(join('packages', name, 'tsconfig.tsbuildinfo'), { force: true });
}
