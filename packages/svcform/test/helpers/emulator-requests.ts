import type { RunningEmulator } from '@svcform/emulator/server.js';
import { call } from '@svcform/emulator/testing.js';

/** A request as the emulator's log (`/__emulator/requests`) gives it. */
export interface LoggedRequest {
  seq: number;
  method: string;
  route: string;
  path: string;
  query: string;
}

/** Requests the emulator logged after request number `since`. */
export async function requestsSince(emu: RunningEmulator, since: number): Promise<LoggedRequest[]> {
  return (await call(emu, 'GET', `/__emulator/requests?since=${since}`)).body.requests;
}

/** The same, as `METHOD route` strings. */
export async function routesSince(emu: RunningEmulator, since: number): Promise<string[]> {
  return (await requestsSince(emu, since)).map((r) => `${r.method} ${r.route}`);
}

/** The requests after `since` that write (every method but GET), as `METHOD route` strings. */
export async function writesSince(emu: RunningEmulator, since: number): Promise<string[]> {
  return (await routesSince(emu, since)).filter((r) => !r.startsWith('GET '));
}

/** The number of the last request logged (0 for none): what a later `requestsSince` counts from. */
export async function lastSeq(emu: RunningEmulator): Promise<number> {
  const all = (await call(emu, 'GET', '/__emulator/requests')).body.requests;
  return all.length ? all[all.length - 1].seq : 0;
}

/** How many of `routes` are `what`. */
export const countOf = (routes: string[], what: string) => routes.filter((r) => r === what).length;
