/** Names and values quoted in messages are cut to this many characters. */
export const MESSAGE_TEXT_MAX = 80;

// C0 and C1 controls and the Unicode line separators: each would break a `file:line:col: message`
// line or drive a terminal.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` cut to `max` characters with an ellipsis, never between the halves of a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** Control characters written as escapes (\n, \u001b), so that text cannot break a message line or drive a terminal. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `text` as it may appear inside a message: cut to `max` characters with an ellipsis (a 10 MB key
 * or value must not be repeated in every message about it, nor make formatting them cost more than
 * reading the file did), control characters written as escapes.
 */
export function shortText(text: string, max = MESSAGE_TEXT_MAX): string {
  return escapeControls(cut(text, max));
}

/** `text` shortened and in double quotes, JSON-escaped: `"Rule\n"`. */
export function quotedText(text: string, max = MESSAGE_TEXT_MAX): string {
  return escapeControls(JSON.stringify(cut(text, max)));
}
