/**
 * Scalar values for the fast YAML reader (yaml-fast.ts): core-schema resolution of plain scalars,
 * line folding of multi-line plain and quoted scalars, escapes, and the content of literal and
 * folded block scalars. Each function gives exactly what the `yaml` package (the full parser)
 * gives for the same source; test/unit/yaml-differential.test.ts holds them to it.
 */

import { decodeEscape } from './yaml-escapes.js';

/** Thrown to abandon the fast path for the current document; never escapes the reader. */
export class Unsupported extends Error {}
export const unsupported = new Unsupported();


/** The YAML 1.2 core schema resolution of a plain scalar (as the full parser does it). */
export function resolvePlain(s: string): unknown {
  const c = s[0];
  // Words: only the null and boolean spellings are special. Keys such as `name`, `tags` and
  // `threat` start with these letters, and are compared, not matched against every pattern.
  if (c === 'n' || c === 'N') return s === 'null' || s === 'Null' || s === 'NULL' ? null : s;
  if (c === 't' || c === 'T') return s === 'true' || s === 'True' || s === 'TRUE' ? true : s;
  if (c === 'f' || c === 'F') return s === 'false' || s === 'False' || s === 'FALSE' ? false : s;
  if (c === '~') return s === '~' ? null : s;
  const maybeNumber = (c >= '0' && c <= '9') || c === '-' || c === '+' || c === '.';
  if (!maybeNumber) return s;
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s)) {
    return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s)) return parseFloat(s);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return parseFloat(s);
  return s;
}

const isWhite = (ch: string | undefined) => ch === ' ' || ch === '\t';

/**
 * Line folding of a multi-line plain or single-quoted scalar's source (YAML 1.2 6.5): white space
 * around each line break is dropped; one break becomes a space, n > 1 breaks become n - 1 newlines.
 * The first line keeps its leading white space, the last its trailing white space.
 */
export function unfoldLines(source: string): string {
  let nl = source.indexOf('\n');
  if (nl < 0) return source;
  let out = trimEnd(source.slice(0, nl));
  let sep = ' ';
  for (;;) {
    const start = nl + 1;
    nl = source.indexOf('\n', start);
    if (nl < 0) {
      let i = start;
      while (isWhite(source[i])) i++;
      return out + sep + source.slice(i);
    }
    const line = trimBoth(source.slice(start, nl));
    if (line === '') {
      if (sep === '\n') out += '\n';
      else sep = '\n';
    } else {
      out += sep + line;
      sep = ' ';
    }
  }
}

function trimEnd(s: string): string {
  let end = s.length;
  while (end > 0 && isWhite(s[end - 1])) end--;
  return s.slice(0, end);
}

function trimBoth(s: string): string {
  let start = 0;
  while (start < s.length && isWhite(s[start])) start++;
  return trimEnd(s.slice(start));
}

/**
 * The value of a double-quoted scalar from the text between its quotes (which may span lines):
 * escapes decoded, an escaped line break joining lines without a space, other breaks folded as in
 * unfoldLines. An invalid escape is an error the full parser reports: the fast path gives up.
 */
export function doubleQuotedValue(body: string): string {
  if (!body.includes('\\') && !body.includes('\n')) return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '\n') {
      // One break is a space; each further (empty) line a newline; the next line's indentation goes.
      let fold = '';
      while (isWhite(body[i + 1]) || body[i + 1] === '\n') {
        if (body[i + 1] === '\n') fold += '\n';
        i++;
      }
      out += fold || ' ';
    } else if (ch === '\\') {
      if (body[i + 1] === '\n') {
        i++;
        while (isWhite(body[i + 1])) i++;
        continue;
      }
      const escape = decodeEscape(body, i);
      if (!escape) throw unsupported;
      out += escape.chars;
      i += escape.length - 1;
    } else if (ch === ' ' || ch === '\t') {
      // White space right before a line break is not content.
      const from = i;
      while (isWhite(body[i + 1])) i++;
      if (body[i + 1] !== '\n') out += body.slice(from, i + 1);
    } else out += ch;
  }
  return out;
}

/** A line of a block scalar: its leading spaces and the rest. */
export interface BlockLine {
  indent: number;
  /** The text after the leading spaces ('' for an empty or spaces-only line). */
  content: string;
}

export interface BlockHeader {
  folded: boolean;
  chomp: '' | '-' | '+';
}

/**
 * The value of a literal or folded block scalar (YAML 1.2 8.1) from its lines after the header,
 * `trim` being its content indentation. `lines` ends with the scalar's trailing empty lines, each
 * of which stands for one line break after the last content line.
 */
export function blockScalarValue(header: BlockHeader, lines: BlockLine[], trim: number): string {
  // Trailing empty lines are chomped; spaces-only lines longer than the indentation are content.
  let chompStart = lines.length;
  while (chompStart > 0 && lines[chompStart - 1].content === '' && lines[chompStart - 1].indent <= trim) chompStart--;
  // Pieces joined once at the end: a string built by += is a tree of pieces that V8 copies into
  // one flat string at its first search or comparison, and the tree is garbage after that.
  const pieces: string[] = [];
  let sep = '';
  let prevMoreIndented = false;
  // Leading empty lines are line breaks whatever the style.
  let i = 0;
  for (; i < chompStart && lines[i].content === ''; i++) pieces.push(' '.repeat(Math.max(0, lines[i].indent - trim)), '\n');
  for (; i < chompStart; i++) {
    const { indent, content } = lines[i];
    const extra = indent > trim ? ' '.repeat(indent - trim) : '';
    if (!header.folded) {
      pieces.push(sep, extra, content);
      sep = '\n';
    } else if (indent > trim || content[0] === '\t') {
      // More-indented lines keep their line breaks (8.1.3).
      if (sep === ' ') sep = '\n';
      else if (!prevMoreIndented && sep === '\n') sep = '\n\n';
      pieces.push(sep, extra, content);
      sep = '\n';
      prevMoreIndented = true;
    } else if (content === '') {
      if (sep === '\n') pieces.push('\n');
      else sep = '\n';
    } else {
      pieces.push(sep, content);
      sep = ' ';
      prevMoreIndented = false;
    }
  }
  if (header.chomp === '-') return pieces.join('');
  if (header.chomp === '') {
    pieces.push('\n');
    return pieces.join('');
  }
  for (let i = chompStart; i < lines.length; i++) pieces.push('\n');
  const value = pieces.join('');
  return value.endsWith('\n') ? value : value + '\n';
}
