import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/cli/config.js';
import { repo } from '../helpers/repo.js';

/** svcform.yaml `emulator:`: the embedded emulator's Fleet package registry (docs/emulator.md, Fleet packages). */
describe('svcform.yaml emulator section', () => {
  it('resolves package folders against the file and keeps the registry URL', () => {
    const dir = repo({ 'svcform.yaml': 'emulator:\n  packages: [fleet-packages, ../shared]\n  registry: http://127.0.0.1:8080\n' });
    const config = loadConfig(join(dir, 'svcform.yaml'), []);
    assert.deepEqual(config.emulator, { packages: [join(dir, 'fleet-packages'), join(dir, '..', 'shared')], registry: 'http://127.0.0.1:8080' });
  });

  it('refuses unknown keys, a packages value that is no list of folders and a registry that is no http URL', () => {
    const dir = repo({ 'svcform.yaml': 'emulator:\n  packages: fleet-packages\n  registry: ftp://x\n  cache: true\n' });
    assert.throws(() => loadConfig(join(dir, 'svcform.yaml'), []), (err: unknown) => {
      const messages = (err as ConfigError).diagnostics.map((d) => d.message);
      assert.deepEqual(messages.sort(), [
        'emulator.cache is not a known setting (packages, registry)',
        'emulator.packages must be a list of folders of packages',
        'emulator.registry must be an http:// or https:// URL of a package registry',
      ]);
      return true;
    });
  });
});
