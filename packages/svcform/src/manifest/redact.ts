import { MIN_FORM_LENGTH, secretForms } from './secret-forms.js';

/**
 * Every value that came from ${env:...} or ${file:...} is registered here, and everything svcform
 * prints (plans, logs, errors, exports) goes through `redact`, so a secret never reaches a terminal
 * or a CI log even when it turns up somewhere unexpected (an error message echoing a body, say).
 */
export const SENSITIVE = '(sensitive)';

/**
 * Forms at least this long are found by a Wu-Manber scan, which moves up to WINDOW - 1 characters
 * at a time; shorter ones (the forms of a 4 to 7 character value) by one regular expression, which
 * V8 runs quickly while its alternatives are few.
 */
const WINDOW = 8;
/** The characters the scan reads at each step (a block), and its largest move. */
const BLOCK = 2;
const MAX_SHIFT = WINDOW - BLOCK + 1;

const blockAt = (s: string, i: number): number => ((s.charCodeAt(i - 1) & 0xff) << 8) | (s.charCodeAt(i) & 0xff);
const headHash = (s: string, i: number): number =>
  (Math.imul(Math.imul(Math.imul(s.charCodeAt(i), 31) + s.charCodeAt(i + 1), 31) + s.charCodeAt(i + 2), 31) + s.charCodeAt(i + 3)) | 0;

interface Matcher {
  /** How far the window may move when it ends in a given block: no form's first WINDOW characters allow a match before that. */
  shift: Uint8Array;
  /** Long forms by the hash of their first four characters, longest first. */
  byHead: Map<number, string[]>;
  /** The short forms, longest first; undefined when there are none. */
  short: RegExp | undefined;
}

export class Redactor {
  private readonly values = new Set<string>();
  private readonly forms = new Set<string>();
  private matcher: Matcher | undefined;

  /**
   * Registers a secret in every form output could carry it (secret-forms.ts): as is, JSON-escaped,
   * percent-encoded, base64 at every offset, hex, and line by line when it spans lines.
   */
  add(value: string): void {
    if (this.values.has(value)) return;
    this.values.add(value);
    for (const form of secretForms(value)) {
      if (this.forms.has(form)) continue;
      this.forms.add(form);
      this.matcher = undefined;
    }
  }

  get size(): number {
    return this.forms.size;
  }

  has(value: string): boolean {
    return this.forms.has(value);
  }

  /**
   * Replaces every registered form with SENSITIVE (overlapping occurrences as one). Output runs
   * through here whole (a plan of thousands of objects) and a secret registers dozens of forms, so
   * the scan skips ahead by blocks instead of trying each form at each position.
   */
  redact(text: string): string {
    if (this.forms.size === 0 || text.length < MIN_FORM_LENGTH) return text;
    const matcher = (this.matcher ??= this.buildMatcher());
    const long = longMatches(text, matcher);
    const short = shortMatches(text, matcher.short);
    if (long.length === 0 && short.length === 0) return text;
    const spans = short.length === 0 ? long : [...long, ...short].sort((a, b) => a[0] - b[0]);
    let out = '';
    let last = 0;
    for (let k = 0; k < spans.length; ) {
      let [start, end] = spans[k++];
      while (k < spans.length && spans[k][0] < end) end = Math.max(end, spans[k++][1]);
      out += text.slice(last, start) + SENSITIVE;
      last = end;
    }
    return out + text.slice(last);
  }

  /**
   * A deep copy of a JSON-shaped value with every registered secret replaced in its strings and
   * keys. String by string, not on the serialized text: a form made of digits (the hex of a
   * secret) must not turn a number into text that is no longer JSON.
   */
  redactValue<T>(value: T): T {
    if (this.forms.size === 0) return value;
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return this.redact(v);
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object') {
        // What JSON.stringify would print for it (a Date's text), as the output will.
        if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return walk((v as { toJSON: () => unknown }).toJSON());
        const out: Record<string, unknown> = {};
        for (const [k, inner] of Object.entries(v)) if (inner !== undefined) out[this.redact(k)] = walk(inner);
        return out;
      }
      return v;
    };
    return walk(value) as T;
  }

  private buildMatcher(): Matcher {
    const shift = new Uint8Array(1 << 16).fill(MAX_SHIFT);
    const byHead = new Map<number, string[]>();
    const short: string[] = [];
    for (const form of this.forms) {
      if (form.length < WINDOW) {
        short.push(form);
        continue;
      }
      // A window ending in the block that ends at q of a form's head may be that head moved by WINDOW - 1 - q.
      for (let q = BLOCK - 1; q < WINDOW; q++) {
        const b = blockAt(form, q);
        shift[b] = Math.min(shift[b], WINDOW - 1 - q);
      }
      const h = headHash(form, 0);
      const list = byHead.get(h);
      if (list) list.push(form);
      else byHead.set(h, [form]);
    }
    for (const list of byHead.values()) list.sort((a, b) => b.length - a.length);
    short.sort((a, b) => b.length - a.length);
    const escaped = short.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return { shift, byHead, short: short.length ? new RegExp(escaped.join('|'), 'g') : undefined };
  }
}

/** [start, end) of each long form found, the longest at each start. */
function longMatches(text: string, { shift, byHead }: Matcher): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  if (byHead.size === 0) return spans;
  // `pos` is the last character of a window of WINDOW characters.
  for (let pos = WINDOW - 1; pos < text.length; ) {
    const s = shift[blockAt(text, pos)];
    if (s > 0) {
      pos += s;
      continue;
    }
    const start = pos - WINDOW + 1;
    const candidates = byHead.get(headHash(text, start));
    if (candidates) {
      for (const form of candidates) {
        if (text.startsWith(form, start)) {
          spans.push([start, start + form.length]);
          break;
        }
      }
    }
    pos += 1;
  }
  return spans;
}

/** [start, end) of each short form found, overlapping ones included. */
function shortMatches(text: string, pattern: RegExp | undefined): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  if (!pattern) return spans;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    spans.push([m.index, m.index + m[0].length]);
    pattern.lastIndex = m.index + 1;
  }
  return spans;
}

/** The process-wide redactor used by every output path. */
export const redactor = new Redactor();
