import type { Router } from './router.js';

/**
 * One API area of the emulator (connectors, detection rules, value lists, ...). An area registers
 * its routes and keeps its state in the store under its own name, per space.
 */
export interface EmulatorArea {
  name: string;
  register(router: Router): void;
}
