/**
 * Types and helpers of the conformance cases (one file per kind beside this one, listed in
 * index.ts). The suite fails for a registered kind without a case, so a new kind must add one.
 *
 * Conventions every case follows:
 * - `a` and `b` are one YAML document each, named `conf-a` and `conf-b` (inside the `conf-` manage
 *   scope the suite writes); `s` is named `keep-secret` (outside that scope) and carries the secret.
 * - `deps` are documents of other kinds that a, b and s name (an agent policy, a connector...).
 * - The out-of-band `edit` changes exactly one field of `conf-a` through the HTTP API, as a person
 *   in the UI would, and `change` is a different field of `conf-a` the suite edits in the manifest.
 * - `reads` are the list routes planning may use for the kind, each with the most requests it may
 *   make for `n` objects of the kind on the server: a page count, never one per object (value lists
 *   read their values with one items find per list, which is what the adapter documents).
 */
import assert from 'node:assert/strict';
import type { CallResult } from '@svcform/emulator/testing.js';

export interface Emu {
  url: string;
}

export interface OutOfBandEdit {
  /** JSON Pointer into the manifest of the field the edit changes, e.g. `/spec/description`. */
  pointer: string;
  /** The value the edit sets (as the manifest would spell it). */
  value: unknown;
  /** Makes the edit on conf-a through the API. */
  apply(emu: Emu): Promise<void>;
  /** Reads the field of conf-a back from the server through the API. */
  read(emu: Emu): Promise<unknown>;
}

export interface ConformanceCase {
  kind: string;
  /** Documents of other kinds the samples need ('' when none). */
  deps: string;
  a: string;
  b: string;
  /** Object named outside the `conf-` scope whose `secret.pointer` field holds ${env:<secret.env>}. */
  s: string;
  /**
   * Where s carries its secret. A kind none of whose fields can hold one (every string is an id
   * or a version) gives `noSecret` instead: check 8 puts ${env:<env>} at `pointer` in s, and
   * validation must refuse it without printing the value.
   */
  secret?: { env: string; pointer: string };
  noSecret?: { env: string; pointer: string; reason: string };
  /**
   * Names of a, b and s when the kind's identity is not free (an owner, a package name, a
   * singleton's fixed name); default conf-a, conf-b, keep-secret. The manage scope of check 4
   * then selects a and b by name.
   */
  names?: { a: string; b: string; s: string };
  /**
   * Names of the objects of the kind a fresh server already holds (Fleet's default output, the
   * default anonymization fields): export writes them beside a and b.
   */
  preexisting?: string[];
  /** Spaces of a, b and s for a kind with one object per space (default: all in `default`). */
  spaces?: { a: string; b: string; s: string };
  /** Variables the samples read besides the secret (not checked for leaks). */
  env?: Record<string, string>;
  edit: OutOfBandEdit;
  /**
   * Another field of conf-a, changed in the manifest by the ignore check. A kind with one field a
   * manifest can change gives `oneField` instead (why), and the check stops after showing that the
   * ignored field's drift is no change.
   */
  change?: { pointer: string; value: unknown };
  oneField?: string;
  /** Deletes an object of the kind, by metadata.name (in `space`), through the API. */
  remove(emu: Emu, name: string, space: string): Promise<void>;
  /**
   * Route pattern -> the most requests a plan may make to it for n objects of the kind. The first
   * entry is the kind's own list route (the plan must use it). A route the API reads with POST
   * (a review or search body) is written `POST /path`: planning may call it, and nothing else
   * that is not a GET.
   */
  reads: Record<string, (n: number) => number>;
  /**
   * Files the samples name (path relative to the manifests -> content), written beside every
   * manifest file of the case; its runs then take the suite's directory as --root.
   */
  files?: Record<string, string>;
  /** The emulator's deployment type when the kind needs another than self-managed (agentless policies: cloud). */
  deployment?: 'cloud' | 'serverless';
  /** What approving the delete of conf-b takes besides --auto-approve (a Space: --allow-space-delete conf-b). */
  deleteArgs?: string[];
}

/** Asserts a 2xx answer and returns it. */
export async function ok(res: Promise<CallResult>, what: string): Promise<CallResult> {
  const r = await res;
  assert.ok(r.status >= 200 && r.status < 300, `${what}: HTTP ${r.status} ${r.text.slice(0, 400)}`);
  return r;
}

export const enc = encodeURIComponent;
/** A read limit of one request, whatever the number of objects: one page. */
export const onePage = () => 1;

export function withoutNulls(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== null && v !== undefined));
}

