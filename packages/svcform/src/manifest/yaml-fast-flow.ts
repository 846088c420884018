/**
 * Quoted scalars on one line and one-line flow collections for the fast YAML reader (yaml-fast.ts).
 */
import { doubleQuotedValue, resolvePlain, unsupported } from './yaml-fast-scalars.js';

/** Offsets of a mapping's keys, or of a sequence's items, in the source text. */
export type Offsets = Record<string, number> | number[];

/** What reading a document collects: position tables, and the ranges where tabs are content. */
export interface FlowContext {
  text: string;
  /** Absent while positions are not recorded. */
  offsets: Map<object, Offsets> | undefined;
  /** Pairs of offsets [from, to) of quoted and block scalars. */
  tabRanges: number[];
}

const SPACE = 32;
const HASH = 35;
const COMMA = 44;
const COLON = 58;
const OPEN_SEQ = 91;
const CLOSE_SEQ = 93;
const OPEN_MAP = 123;
const CLOSE_MAP = 125;

/** Characters a plain scalar cannot start with (YAML c-indicator), `-?:` handled apart. */
export const INDICATORS = new Set([',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`', '\t']);

export const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

export function skipSpaces(text: string, pos: number, end: number): number {
  while (pos < end && text.charCodeAt(pos) === SPACE) pos++;
  return pos;
}

/** Offset just after the closing quote of the quoted scalar at `pos`, or -1 if it does not close before `end`. */
export function quotedEnd(text: string, pos: number, end: number): number {
  const q = text[pos];
  for (let i = pos + 1; i < end; i++) {
    const ch = text[i];
    if (q === '"' && ch === '\\') i++;
    else if (ch === q) {
      if (q === "'" && text[i + 1] === "'") i++;
      else return i + 1;
    }
  }
  return -1;
}

/** A quoted scalar that closes on its line. */
export function quoted(ctx: FlowContext, pos: number, end: number): { value: string; end: number } {
  const close = quotedEnd(ctx.text, pos, end);
  if (close < 0) throw unsupported;
  ctx.tabRanges.push(pos, close);
  const body = ctx.text.slice(pos + 1, close - 1);
  if (ctx.text[pos] === "'") return { value: body.includes("''") ? body.replace(/''/g, "'") : body, end: close };
  return { value: doubleQuotedValue(body), end: close };
}

/** A flow collection or scalar starting at `pos`, closed on the same line. */
export function flow(ctx: FlowContext, pos: number, end: number): { value: unknown; end: number } {
  const text = ctx.text;
  const c = text[pos];
  if (c === '[') {
    const seq: unknown[] = [];
    const at: number[] | undefined = ctx.offsets && [];
    if (at) ctx.offsets!.set(seq, at);
    let p = skipSpaces(text, pos + 1, end);
    if (text[p] === ']') return { value: seq, end: p + 1 };
    for (;;) {
      at?.push(p);
      const item = flow(ctx, p, end);
      seq.push(item.value);
      p = skipSpaces(text, item.end, end);
      if (text[p] === ']') return { value: seq, end: p + 1 };
      if (text[p] !== ',') throw unsupported; // `a: b` pairs, comments, line breaks...
      p = skipSpaces(text, p + 1, end);
      if (text[p] === ']' || text[p] === ',') throw unsupported;
    }
  }
  if (c === '{') {
    const map: Record<string, unknown> = {};
    const keys: Record<string, number> | undefined = ctx.offsets && Object.create(null);
    if (keys) ctx.offsets!.set(map, keys);
    let p = skipSpaces(text, pos + 1, end);
    if (text[p] === '}') return { value: map, end: p + 1 };
    for (;;) {
      const keyAt = p;
      const key = flow(ctx, p, end);
      if (typeof key.value !== 'string' || (text[keyAt] !== '"' && text[keyAt] !== "'" && typeof resolvePlain(key.value) !== 'string')) throw unsupported;
      const name = key.value;
      if (hasOwn(map, name) || name === '__proto__' || name === '<<') throw unsupported;
      p = key.end;
      if (text[p] !== ':' || text[p + 1] !== ' ') throw unsupported;
      p = skipSpaces(text, p + 1, end);
      if (text[p] === ',' || text[p] === '}') throw unsupported; // `{a: }`
      if (keys) keys[name] = keyAt;
      const value = flow(ctx, p, end);
      map[name] = value.value;
      p = skipSpaces(text, value.end, end);
      if (text[p] === '}') return { value: map, end: p + 1 };
      if (text[p] !== ',') throw unsupported;
      p = skipSpaces(text, p + 1, end);
      if (text[p] === '}' || text[p] === ',') throw unsupported;
    }
  }
  if (c === '"' || c === "'") return quoted(ctx, pos, end);
  if (pos >= end || INDICATORS.has(c)) throw unsupported;
  if ((c === '-' || c === '?' || c === ':') && (pos + 1 >= end || text[pos + 1] === ' ' || text[pos + 1] === ',')) throw unsupported;
  let p = pos;
  for (; p < end; p++) {
    const ch = text.charCodeAt(p);
    if (ch === COMMA || ch === CLOSE_SEQ || ch === CLOSE_MAP) break;
    if (ch === OPEN_SEQ || ch === OPEN_MAP) throw unsupported;
    if (ch === COLON) {
      const next = text.charCodeAt(p + 1);
      if (p + 1 === end || next === SPACE || next === COMMA || next === CLOSE_SEQ || next === CLOSE_MAP) break;
    }
    if (ch === HASH && text.charCodeAt(p - 1) === SPACE) throw unsupported;
  }
  let last = p;
  while (last > pos && text.charCodeAt(last - 1) === SPACE) last--;
  return { value: resolvePlain(text.slice(pos, last)), end: p };
}
