import { RunKey } from './run-scope.js';

/**
 * The long texts of the run's manifests (a rule's note, description, query), by value, so that a
 * listed object holding the same text can hold the manifest's string instead of its own copy.
 *
 * A plan holds every manifest and every listed object until it compares them, and for rules most
 * of both is the same long texts twice: at 20,000 generated rules the investigation guides alone
 * were about 200 MB on each side (a heap snapshot of a repeated plan while its pages arrived).
 * Sharing changes no value, only which of two equal strings is kept: the page's copy becomes
 * garbage as soon as its page is read, and comparing the two is then comparing a string with itself.
 */
export class SharedTexts {
  readonly #texts = new Map<string, string>();
  /** Offered and not yet looked through: a run whose listings share nothing (few rules) never hashes them. */
  #offered: Array<Record<string, unknown>> = [];
  #shared = 0;

  /** How many strings of listed objects were replaced by the manifests' (what the run saved). */
  get shared(): number {
    return this.#shared;
  }

  /** Offers the long strings among `values`' own fields (a manifest's spec), read at the next `share`. */
  offer(values: Record<string, unknown>): void {
    this.#offered.push(values);
  }

  /** Replaces each long string among `values`' own fields by the offered string of the same text, if any. */
  share(values: Record<string, unknown>): void {
    if (this.#offered.length > 0) this.#index();
    if (this.#texts.size === 0) return;
    for (const key in values) {
      const value = values[key];
      if (typeof value !== 'string' || value.length < MIN_LENGTH) continue;
      const offered = this.#texts.get(value);
      if (offered === undefined) continue;
      values[key] = offered;
      this.#shared += 1;
    }
  }

  #index(): void {
    for (const values of this.#offered) {
      for (const key in values) {
        const value = values[key];
        if (typeof value === 'string' && value.length >= MIN_LENGTH) this.#texts.set(value, value);
      }
    }
    this.#offered = [];
  }
}

/** Shorter strings are not worth a lookup: a short copy costs little to keep. */
const MIN_LENGTH = 256;

/** The run's shared texts: the CLI offers the manifests' once they are loaded; listings share against them. */
export const SHARED_TEXTS = new RunKey('long texts of the manifests', () => new SharedTexts());
