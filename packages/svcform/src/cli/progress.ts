import type { KindAdapter } from '../kinds/types.js';
import type { Io } from './context.js';

export interface LiveReadProgress {
  /** The registry's lookup, with each adapter's `list` counted. */
  adapterFor(kind: string): KindAdapter | undefined;
  /** Clears the progress line (call once reading is over, also after a failure). */
  done(): void;
}

/**
 * Reports reading live state, one (kind, space) listing at a time: on a terminal a single line on
 * stderr, rewritten in place, with the objects found per kind so far; with --verbose a line per
 * listing instead (logs keep them). Nothing under --quiet, and nothing when stderr is not a
 * terminal without --verbose: a CI log or a pipe gets no progress noise.
 */
export function liveReadProgress(io: Io, opts: { quiet?: boolean; verbose?: boolean }, lookup: (kind: string) => KindAdapter | undefined): LiveReadProgress {
  const verbose = !!opts.verbose;
  const line = !opts.quiet && !verbose && io.errTty;
  if (!line && !verbose) return { adapterFor: lookup, done: () => {} };
  const show = io.progress ?? ((text: string) => text && io.err(text));
  /** Objects listed, by kind and space: a (kind, space) read again (apply's read-ahead set aside) counts once. */
  const listed = new Map<string, { kind: string; objects: number }>();
  let started = 0;
  let finished = 0;
  let shown = false;
  const render = () => {
    const perKind = new Map<string, number>();
    for (const { kind, objects } of listed.values()) perKind.set(kind, (perKind.get(kind) ?? 0) + objects);
    const counts = [...perKind.entries()].map(([kind, n]) => `${kind} ${n}`).join(', ');
    show(`Reading live state: ${finished}/${started} lists${counts ? ` (${counts})` : ''}`);
    shown = true;
  };
  const wrapped = new Map<string, KindAdapter>();
  const count = (adapter: KindAdapter): KindAdapter =>
    new Proxy(adapter, {
      get(target, prop, receiver) {
        if (prop !== 'list') return Reflect.get(target, prop, receiver);
        return async (...args: Parameters<KindAdapter['list']>) => {
          started++;
          const begun = Date.now();
          const objects = await target.list(...args);
          finished++;
          listed.set(`${target.kind}\u0000${args[1]}`, { kind: target.kind, objects: objects.length });
          if (verbose) io.err(`listed ${objects.length} ${target.kind} in space ${args[1]} (${Date.now() - begun} ms)`);
          else render();
          return objects;
        };
      },
    });
  return {
    adapterFor(kind) {
      const adapter = lookup(kind);
      if (!adapter) return undefined;
      if (!wrapped.has(kind)) wrapped.set(kind, count(adapter));
      return wrapped.get(kind);
    },
    done() {
      if (shown) show('');
      shown = false;
    },
  };
}
