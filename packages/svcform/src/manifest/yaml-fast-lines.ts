/**
 * The line table of the fast YAML reader (yaml-fast.ts) and the block scalars read from it: one
 * entry per line in typed arrays (a rule set has hundreds of thousands of lines), with where it
 * starts and ends, its indentation and what it holds.
 */
import { skipSpaces } from './yaml-fast-flow.js';
import { blockScalarValue, unsupported, type BlockLine } from './yaml-fast-scalars.js';

const SPACE = 32;
const HASH = 35;
const DASH = 45;

export const enum LineType {
  Blank,
  Comment,
  Content,
  DocStart,
}

function grown<T extends Int32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

export class Lines {
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Leading spaces of each line; -1 for a `---` line so that it closes every open block. */
  readonly indents: Int32Array;
  readonly types: Uint8Array;

  constructor(private readonly text: string) {
    // One pass, in tables that grow as needed: counting the lines first was a third of the work.
    let capacity = (text.length >> 5) + 16;
    let starts = new Int32Array(capacity);
    let ends = new Int32Array(capacity);
    let indents = new Int32Array(capacity);
    let types = new Uint8Array(capacity);
    let line = 0;
    let start = 0;
    for (;;) {
      let end = text.indexOf('\n', start);
      const last = end === -1;
      if (last) end = text.length;
      if (line === capacity) {
        capacity *= 2;
        starts = grown(starts, new Int32Array(capacity));
        ends = grown(ends, new Int32Array(capacity));
        indents = grown(indents, new Int32Array(capacity));
        types = grown(types, new Uint8Array(capacity));
      }
      let i = start;
      while (i < end && text.charCodeAt(i) === SPACE) i++;
      let type: LineType;
      if (i === end) type = LineType.Blank;
      else if (text.charCodeAt(i) === HASH) type = LineType.Comment;
      else if (i === start && text.startsWith('---', start) && (end === start + 3 || text.charCodeAt(start + 3) === SPACE)) type = LineType.DocStart;
      else {
        // Directives and document-end markers change how documents are read: leave them to the full parser.
        if (i === start && (text[i] === '%' || text.startsWith('...', start))) throw unsupported;
        type = LineType.Content;
      }
      starts[line] = start;
      ends[line] = end;
      indents[line] = type === LineType.DocStart ? -1 : i - start;
      types[line] = type;
      line++;
      if (last) break;
      start = end + 1;
    }
    this.starts = starts.slice(0, line);
    this.ends = ends.slice(0, line);
    this.indents = indents.slice(0, line);
    this.types = types.slice(0, line);
  }

  /** First line at or after `line` that is neither blank nor a comment. */
  skipBlank(line: number): number {
    const total = this.types.length;
    while (line < total && (this.types[line] === LineType.Blank || this.types[line] === LineType.Comment)) line++;
    return line;
  }

  /** Indent of a line for block structure purposes: -1 past the end (closes every block). */
  indentOf(line: number): number {
    return line < this.indents.length ? this.indents[line] : -1;
  }

  /** Whether the line is a block sequence item (`- ...` or a lone `-`). */
  isSeqItem(line: number): boolean {
    const pos = this.starts[line] + this.indents[line];
    const next = pos + 1;
    return this.text.charCodeAt(pos) === DASH && (next === this.ends[line] || this.text.charCodeAt(next) === SPACE);
  }
}

/** A literal (`|`) or folded (`>`) block scalar whose header is at `pos`; the enclosing block sits at `indent`. */
export function blockScalar(lines: Lines, text: string, line: number, pos: number, indent: number, tabRanges: number[]): { value: string; next: number } {
  const end = lines.ends[line];
  let p = pos + 1;
  let chomp: '' | '-' | '+' = '';
  let explicit = 0;
  for (; p < end; p++) {
    const ch = text[p];
    if (!chomp && (ch === '-' || ch === '+')) chomp = ch;
    else if (!explicit && ch >= '1' && ch <= '9') explicit = Number(ch);
    else break;
  }
  if (p < end && text.charCodeAt(p) !== SPACE) throw unsupported;
  const rest = skipSpaces(text, p, end);
  if (rest < end && text.charCodeAt(rest) !== HASH) throw unsupported;

  const total = lines.types.length;
  let l = line + 1;
  let longestLeading = 0;
  for (; l < total && lines.types[l] === LineType.Blank; l++) longestLeading = Math.max(longestLeading, lines.ends[l] - lines.starts[l]);
  if (l >= total || lines.types[l] === LineType.DocStart || lines.indents[l] <= indent) throw unsupported; // an empty block scalar
  const trim = explicit ? indent + explicit : lines.indents[l];
  // Leading spaces-only lines longer than the content's indentation, or content less indented than an indicator says.
  if (longestLeading > trim || lines.indents[l] < trim) throw unsupported;
  const content: BlockLine[] = [];
  for (let k = line + 1; k < l; k++) content.push({ indent: lines.ends[k] - lines.starts[k], content: '' });
  for (; l < total; l++) {
    const type = lines.types[l];
    if (type === LineType.DocStart) break;
    if (type === LineType.Blank) {
      content.push({ indent: lines.ends[l] - lines.starts[l], content: '' });
      continue;
    }
    const lineIndent = lines.indents[l];
    if (lineIndent < trim) {
      if (lineIndent <= indent) break;
      throw unsupported; // less indented than the content: an error the full parser reports
    }
    content.push({ indent: lineIndent, content: text.slice(lines.starts[l] + lineIndent, lines.ends[l]) });
  }
  // The full parser treats trailing spaces-only lines after an indentation indicator in its own way.
  if (explicit) for (let k = content.length - 1; k >= 0 && content[k].content === ''; k--) if (content[k].indent > trim) throw unsupported;
  // A line after the scalar means one more line break at its end (the one before that line).
  if (l < total) content.push({ indent: 0, content: '' });
  tabRanges.push(lines.starts[line + 1], l < total ? lines.starts[l] : text.length);
  return { value: blockScalarValue({ folded: text[pos] === '>', chomp }, content, trim), next: l };
}
