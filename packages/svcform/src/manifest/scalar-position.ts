/**
 * Where a character of a YAML string value sits in the file. A query's error is at an offset in
 * the string's VALUE; the value differs from the source wherever YAML folds lines, strips
 * indentation, or decodes escapes, so the offset is mapped back to the source.
 *
 * This decides no value: the value comes from the reader that read the document (the fast reader,
 * yaml-fast-scalars.ts, or the `yaml` package), and is walked beside the source from where the
 * scalar starts. A character of the source that equals the value's next character produced it; an
 * escape (yaml-escapes.ts) produced what it stands for; a line break produced the space or newline
 * a fold made of it; other white space and line breaks are syntax (indentation, folding) and are
 * passed over. Anything else means the source does not say this value (interpolated, or a shape
 * not read here), and the caller points at the key instead.
 */

import { decodeEscape } from './yaml-escapes.js';

const isBreak = (c: string | undefined) => c === '\n' || c === '\r';
const isWhite = (c: string | undefined) => c === ' ' || c === '\t';

/** Where the white space from `at` ends. */
function whiteEnd(text: string, at: number): number {
  while (isWhite(text[at])) at++;
  return at;
}

/** Skips a tag (`!!str`) and an anchor (`&a`) before a scalar. */
function skipProperties(text: string, start: number): number {
  let i = start;
  while (text[i] === '!' || text[i] === '&') {
    while (i < text.length && !isWhite(text[i]) && !isBreak(text[i])) i++;
    while (isWhite(text[i])) i++;
  }
  return i;
}

/**
 * The source offset of each character of `value` in the scalar that starts at `start` (its first
 * character, or its tag or anchor), or undefined when the source does not give this value.
 */
export function valueSources(text: string, start: number, value: string): number[] | undefined {
  let s = skipProperties(text, start);
  const style = text[s];
  const doubleQuoted = style === '"';
  const singleQuoted = style === "'";
  if (doubleQuoted || singleQuoted) s++;
  else if (style === '|' || style === '>') while (s < text.length && !isBreak(text[s])) s++; // the header line
  const block = style === '|' || style === '>';
  // Past a line break: in a quoted or plain scalar the next line's leading white space is never
  // content, so it is passed over at once (an escaped space after it is then content, not it).
  const pastBreak = (at: number) => {
    let next = at + (text[at] === '\r' && text[at + 1] === '\n' ? 2 : 1);
    if (!block) while (isWhite(text[next])) next++;
    return next;
  };
  const sources: number[] = [];
  for (let i = 0; i < value.length; ) {
    const v = value[i]!;
    const c = text[s];
    if (c === undefined) return undefined;
    if (doubleQuoted && c === '\\') {
      if (isBreak(text[s + 1])) {
        s = pastBreak(s + 1); // an escaped line break joins the lines
        continue;
      }
      const escape = decodeEscape(text, s);
      if (!escape || !value.startsWith(escape.chars, i)) return undefined;
      for (let k = 0; k < escape.chars.length; k++) sources.push(s);
      i += escape.chars.length;
      s += escape.length;
    } else if ((doubleQuoted && c === '"') || (singleQuoted && c === "'")) {
      if (!singleQuoted || text[s + 1] !== "'" || v !== "'") return undefined; // the closing quote
      sources.push(s);
      i++;
      s += 2;
    } else if (isBreak(c) && block) {
      if (v === ' ' || v === '\n') {
        sources.push(s); // the fold, or the kept line break
        i++;
      }
      s = pastBreak(s);
    } else if (isBreak(c)) {
      // A quoted or plain scalar folds a run of n line breaks to a space (n = 1) or n - 1 newlines.
      const breaks = [s];
      s = pastBreak(s);
      while (isBreak(text[s])) {
        breaks.push(s);
        s = pastBreak(s);
      }
      const folds = breaks.length === 1 ? breaks : breaks.slice(1);
      for (const b of folds) {
        if (value[i] !== (breaks.length === 1 ? ' ' : '\n')) return undefined;
        sources.push(b);
        i++;
      }
    } else if (!block && isWhite(c) && isBreak(text[whiteEnd(text, s)])) {
      s = whiteEnd(text, s); // white space before a line break is not content
    } else if (c === v) {
      sources.push(s);
      i++;
      s++;
    } else if (isWhite(c)) s++;
    else return undefined;
  }
  return sources;
}

/**
 * The source offset of character `offset` of the scalar's value (its end, for an offset at or past
 * the end), provided the source gives `expected`: anything else (a value changed by interpolation,
 * a shape this module does not follow) gives undefined, and the caller points at the key instead.
 */
export function sourceOffsetInScalar(text: string, start: number, offset: number, expected: string): number | undefined {
  const sources = valueSources(text, start, expected);
  if (!sources) return undefined;
  if (offset < sources.length) return sources[Math.max(0, offset)];
  if (sources.length === 0) return skipProperties(text, start);
  return sources[sources.length - 1]! + 1;
}

/**
 * Where the value of a `key: value` entry starts, from the offset of its key (plain or quoted) when
 * the value is on the key's line; undefined when it is not.
 */
export function valueStartAfterKey(text: string, key: number): number | undefined {
  let i = key;
  const quote = text[i];
  if (quote === '"' || quote === "'") {
    i++;
    while (i < text.length && !isBreak(text[i])) {
      if (quote === '"' && text[i] === '\\') i += 2;
      else if (quote === "'" && text[i] === "'" && text[i + 1] === "'") i += 2;
      else if (text[i] === quote) break;
      else i++;
    }
    i++;
    while (isWhite(text[i])) i++;
    if (text[i] !== ':') return undefined;
  } else {
    while (i < text.length && !isBreak(text[i]) && !(text[i] === ':' && (isWhite(text[i + 1]) || isBreak(text[i + 1]) || i + 1 === text.length))) i++;
    if (text[i] !== ':') return undefined;
  }
  i++;
  while (isWhite(text[i])) i++;
  return i < text.length && !isBreak(text[i]) && text[i] !== '#' ? i : undefined;
}
