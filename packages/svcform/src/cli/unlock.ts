import { AREAS } from '../client/areas.js';
import { leaseInForce, releaseLease } from '../engine/lease.js';
import { connectorLeaseStore } from '../kinds/connector/lease-store.js';
import { defaultSpace, openTarget, readConfig, type CommonOptions, type Io } from './context.js';

export interface UnlockOptions extends CommonOptions {
  force?: boolean;
}

export const UNLOCK_QUESTION = "Release it? Only if that apply is no longer running: it would go on writing beside the next one. Only 'yes' will be accepted: ";

/**
 * `svcform unlock`: shows who holds the apply lease of a space and releases it, for a lease a killed
 * run left behind (it would block every apply until it expires). A running apply's lease is not
 * something to take away silently, so the holder is always shown first and the release needs a
 * `yes` on a terminal, or `--force` without one. Only the lease shown is released: one taken in
 * between is left alone.
 */
export async function unlockCommand(opts: UnlockOptions, io: Io): Promise<number> {
  const config = readConfig(opts, []);
  const space = defaultSpace(opts, config);
  const target = await openTarget(opts, config, io, [space]);
  try {
    const store = connectorLeaseStore({ request: (req) => target.client.request({ ...req, area: AREAS.actions.name }) });
    const held = await leaseInForce(store, space);
    if (!held) {
      io.out(`Space ${space}: no apply holds the lease; nothing to release.`);
      return 0;
    }
    // Shown even under --quiet when a person is asked: they decide on it.
    if (!opts.quiet || !opts.force) io.out(`Space ${space}: the apply lease is held by ${held.holder} since ${held.since}, until ${held.expires} unless renewed.`);
    if (!opts.force) {
      if (!io.stdinTty || !io.prompt) {
        io.err('There is no terminal to ask on: pass --force to release it. Nothing was released.');
        return 1;
      }
      if ((await io.prompt(UNLOCK_QUESTION)).trim() !== 'yes') {
        io.err('Nothing was released.');
        return 1;
      }
    }
    if (!(await releaseLease(store, space, held))) {
      const now = await leaseInForce(store, space);
      io.err(`The lease changed meanwhile${now ? ` (now held by ${now.holder} since ${now.since})` : ''}; nothing was released.`);
      return 1;
    }
    io.out(`Released the lease of ${held.holder} in space ${space}.`);
    return 0;
  } finally {
    await target.close();
  }
}
