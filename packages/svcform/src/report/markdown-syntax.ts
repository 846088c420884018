/**
 * Escaping for GitHub-flavoured Markdown. Object names, error messages and field values come from
 * manifests and servers, so any of them may hold characters Markdown or HTML would interpret.
 */

/** Line breaks would end a list item or a table row: inline text is kept on one line. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}

/**
 * Text shown as itself inside a paragraph or list item. Backslash-escaping ASCII punctuation is
 * always allowed in CommonMark, so every character that could start emphasis, a link, HTML, an
 * entity, a table cell or strikethrough is escaped, and so is a leading one that could start a
 * block (a heading, a quote, a nested list).
 */
export function inlineText(text: string): string {
  return oneLine(text)
    .replace(/[\\`*_[\]<>|~&!]/g, '\\$&')
    .replace(/^([#+\-=>])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2');
}

/** A code span that shows `text` exactly, backticks included (CommonMark 6.1). */
export function codeSpan(text: string): string {
  const content = oneLine(text);
  if (content === '') return '` `';
  const longestRun = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longestRun + 1);
  // One space each side is stripped again by the parser; it keeps a leading or trailing backtick
  // from merging with the delimiter.
  const pad = /^[` ]|[` ]$/.test(content) ? ' ' : '';
  return `${ticks}${pad}${content}${pad}${ticks}`;
}

/** A fence longer than any run of backticks in the content, so no content line can close it. */
export function fenceFor(lines: readonly string[]): string {
  let longest = 0;
  for (const line of lines) for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}
