import { randomBytes } from 'node:crypto';
/**
 * A lease on a space for the length of an apply, so two applies never write the same space at once
 * (both would plan the same creates, and kinds whose identity the server does not enforce would be
 * duplicated).
 *
 * It is built on one atomic primitive of the server: creating an object with a chosen id answers
 * 409 when that id exists. Leases are numbered objects `1, 2, 3...` per space; the newest number
 * is the lease in force. To take it, svcform reads the leases, and when the newest is released or
 * expired it creates the next number: of two takers only one create succeeds. The taker then checks
 * that its number is still the newest (a taker that read long ago cannot win with a stale number,
 * because numbers are only removed far behind the newest). A holder renews its expiry while it
 * works; a crashed holder's lease expires after `ttlMs`, and the next apply takes the next number.
 */

import type { LeaseRecord, LeaseStore, StoredLease } from '../kinds/connector/lease-store.js';

export type { LeaseRecord, LeaseStore, StoredLease };

export interface LeaseOptions {
  holder: string;
  /** How long to wait for a lease held by someone else; 0 fails at once. */
  waitMs: number;
  /** A lease not renewed for this long is free. */
  ttlMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  onWait?: (held: StoredLease, space: string) => void;
  /**
   * Per space, the newest lease number an observation found out of force (observeLease, before live
   * state was read ahead): the first attempt creates the next number without reading the leases
   * again. A stale guess costs nothing: the create of a number taken since fails, and a lease taken
   * past it is found by the check after the create, as with any stale read.
   */
  lastSeenFree?: ReadonlyMap<string, number>;
}

export class LeaseHeldError extends Error {}

/** Leases this far behind the newest are removed; the gap defeats takers with a stale read. */
const KEEP_BEHIND = 5;

export interface HeldLeases {
  release(): Promise<void>;
  /** The lease number taken in each space. */
  taken: ReadonlyMap<string, number>;
}

/** A space's leases as seen before live state was read ahead of taking the lease (read-ahead.ts). */
export interface LeaseObservation {
  space: string;
  /** The newest lease number (0 when there is none). */
  newest: number;
  /** Whether that lease was held then. */
  inForce: boolean;
}

export async function observeLease(store: LeaseStore, space: string, now: () => number = Date.now): Promise<LeaseObservation> {
  const newest = newestLease(await store.list(space));
  return { space, newest: newest?.n ?? 0, inForce: inForce(newest, now()) };
}

/**
 * Whether no other apply held or took a space's lease from `seen` until `held` took it: nobody held
 * it then, and the number taken is the very next one. Every apply takes a new number, so live state
 * read after `seen` is what the lease would have let this run read.
 */
export function untouchedSince(seen: LeaseObservation, held: HeldLeases): boolean {
  return !seen.inForce && held.taken.get(seen.space) === seen.newest + 1;
}

/** The lease with the highest number: the one that decides whether a space is held. */
function newestLease(leases: StoredLease[]): StoredLease | undefined {
  return leases.reduce<StoredLease | undefined>((m, l) => (!m || l.n > m.n ? l : m), undefined);
}

function inForce(lease: StoredLease | undefined, now: number): boolean {
  return !!lease && !lease.released && Date.parse(lease.expires) > now;
}

/** The lease that holds a space now, if any (the newest, neither released nor expired). */
export async function leaseInForce(store: LeaseStore, space: string, now: () => number = Date.now): Promise<StoredLease | undefined> {
  const newest = newestLease(await store.list(space));
  return inForce(newest, now()) ? newest : undefined;
}

/**
 * Releases another apply's lease, as `svcform unlock` does for one a killed run left behind: only
 * when `lease` is still the newest, with the token that was shown, so a lease taken since is never
 * released unseen. False when it changed meanwhile.
 */
export async function releaseLease(store: LeaseStore, space: string, lease: StoredLease, now: () => number = Date.now): Promise<boolean> {
  const newest = newestLease(await store.list(space));
  if (!newest || newest.n !== lease.n || newest.token !== lease.token) return false;
  const { n: _n, ...record } = lease;
  await store.update(space, lease.n, { ...record, expires: new Date(now()).toISOString(), released: true });
  return true;
}

async function takeOne(store: LeaseStore, space: string, options: LeaseOptions): Promise<{ n: number; token: string; since: string }> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const started = now();
  const token = randomBytes(8).toString('hex');
  let lostAnswers = 0;
  let guess = options.lastSeenFree?.get(space);
  for (;;) {
    const newest = guess === undefined ? newestLease(await store.list(space)) : undefined;
    if (newest && inForce(newest, now())) {
      if (now() - started >= options.waitMs) {
        throw new LeaseHeldError(
          `space ${space} is being applied by ${newest.holder} since ${newest.since} (lease until ${newest.expires}); ` +
            (options.waitMs > 0 ? `waited ${Math.round(options.waitMs / 1000)} s. ` : '') +
            'Wait for it, raise --lock-timeout, or use --no-lock if you know no other apply runs.',
        );
      }
      options.onWait?.(newest, space);
      await sleep(Math.min(1000, Math.max(50, options.waitMs / 10)));
      continue;
    }
    const n = (guess ?? newest?.n ?? 0) + 1;
    guess = undefined;
    const t = now();
    const record: LeaseRecord = { holder: options.holder, token, since: new Date(t).toISOString(), expires: new Date(t + options.ttlMs).toISOString(), released: false };
    let created: boolean;
    try {
      created = await store.create(space, n, record);
    } catch (err) {
      // The answer was lost: the lease may be ours. Our token says so; a lease left behind
      // unread would block every apply until it expired.
      const mine = (await store.list(space)).some((l) => l.n === n && l.token === token);
      if (!mine && ++lostAnswers >= 3) throw err;
      created = mine;
    }
    if (!created) continue;
    const after = await store.list(space);
    if (after.some((l) => l.n > n)) {
      // Our number was stale: someone took a later one. Step back and try again.
      await store.update(space, n, { ...record, released: true });
      continue;
    }
    for (const old of after) if (old.n < n - KEEP_BEHIND) await store.remove(space, old.n).catch(() => undefined);
    return { n, token, since: record.since };
  }
}

/**
 * Takes the lease of every space (in sorted order, so two applies never wait on each other in a
 * circle), renews them while held, and releases them on `release()`.
 */
export async function acquireLeases(store: LeaseStore, spaces: string[], options: LeaseOptions): Promise<HeldLeases> {
  const now = options.now ?? Date.now;
  const held: Array<{ space: string; n: number; token: string; since: string }> = [];
  const release = async () => {
    clearInterval(timer);
    for (const h of held.splice(0)) {
      const t = now();
      await store.update(h.space, h.n, { holder: options.holder, token: h.token, since: h.since, expires: new Date(t).toISOString(), released: true }).catch(() => undefined);
    }
  };
  const timer = setInterval(() => {
    for (const h of held) {
      const t = now();
      store.update(h.space, h.n, { holder: options.holder, token: h.token, since: h.since, expires: new Date(t + options.ttlMs).toISOString(), released: false }).catch(() => undefined);
    }
  }, Math.max(1000, options.ttlMs / 3));
  timer.unref();
  try {
    for (const space of [...new Set(spaces)].sort()) {
      held.push({ space, ...(await takeOne(store, space, options)) });
    }
  } catch (err) {
    await release();
    throw err;
  }
  return { release, taken: new Map(held.map((h) => [h.space, h.n])) };
}
