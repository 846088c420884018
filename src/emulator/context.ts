import { randomUUID } from 'node:crypto';
import type { Store } from './store.js';

export type License = 'basic' | 'gold' | 'platinum' | 'enterprise' | 'trial';

export interface EmulatorSettings {
  license: License;
  /** Whether the deployment is self-managed (agentless Fleet calls are refused with 400). */
  selfManaged: boolean;
  /**
   * Where service-api.md and the real server differ, the emulator follows the document; each name
   * listed here switches one such route to the real server's behaviour instead (so tests can show
   * that svcform converges against both). Known: `rules.query-required`.
   */
  realBehaviours?: string[];
}

/** What every area handler may use besides the request. */
export interface EmulatorContext {
  store: Store;
  settings: EmulatorSettings;
  now(): Date;
  uuid(): string;
}

export function makeContext(store: Store, settings: EmulatorSettings, now: () => Date = () => new Date()): EmulatorContext {
  return { store, settings, now, uuid: randomUUID };
}

/** Licence tiers in order, for "Platinum or higher" checks. */
export function licenseAtLeast(have: License, need: License): boolean {
  const order: License[] = ['basic', 'gold', 'platinum', 'enterprise'];
  const h = have === 'trial' ? order.indexOf('enterprise') : order.indexOf(have);
  return h >= order.indexOf(need);
}
