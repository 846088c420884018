// Removes the build output, so files whose sources were renamed or deleted can never be run as
// tests or shipped in the package.
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
