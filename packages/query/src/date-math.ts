/**
 * Whether the server takes a string as date math: the check of a rule's `from`
 * (isValidDateMath of kbn-zod-helpers, which asks @kbn/datemath's `parse` for a valid moment).
 *
 * The forms it takes:
 * - `now` followed by operations (`now`, `now-6m`, `now-1d/d`, `now-d`: a missing count is 1);
 * - an absolute date, alone or anchored: `2024-01-01T00:00:00Z`, `2024-01-01||-1d/d`.
 *
 * Each operation is `+` or `-` with a count and a unit, or `/` with a unit (a count, if written,
 * must be 1); the units are ms, s, m, h, d, w, M and y, letters after the unit's first one
 * belonging to it (`now-5mo` names no unit).
 */

const UNITS = new Set(['ms', 's', 'm', 'h', 'd', 'w', 'M', 'y']);
const LETTER = /[a-z]/i;

/**
 * A character datemath counts as part of a number: it asks `isNaN` of the character, which is false
 * for digits, for whitespace (it converts to 0) and for the empty string past the end.
 */
function countsAsDigit(c: string): boolean {
  return c === '' || /^[0-9\s]$/.test(c);
}

function validOperations(math: string): boolean {
  let i = 0;
  while (i < math.length) {
    const op = math[i++];
    if (op !== '/' && op !== '+' && op !== '-') return false;
    let count: number | string = 1;
    if (!countsAsDigit(math.charAt(i))) count = 1;
    // A two-character string ("-5") takes the character as its count, as a string.
    else if (math.length === 2) count = math.charAt(i);
    else {
      const from = i;
      while (countsAsDigit(math.charAt(i))) {
        i++;
        // A count that runs to the end has no unit.
        if (i >= math.length) return false;
      }
      count = parseInt(math.slice(from, i), 10);
    }
    if (op === '/' && count !== 1) return false;
    let unit = math.charAt(i++);
    while (i < math.length && LETTER.test(math.charAt(i))) unit += math.charAt(i++);
    if (!UNITS.has(unit)) return false;
  }
  return true;
}

/**
 * A date the server's moment reads: ISO 8601 first, then the JavaScript Date parser, which this
 * runtime shares. moment also reads ISO forms Date does not (week and ordinal dates, the basic
 * format); a string that starts as an ISO date is taken, so that this check never refuses a date
 * the server reads.
 */
function readableDate(text: string): boolean {
  if (text.trim() === '') return false;
  return !Number.isNaN(Date.parse(text)) || /^\s*(?:[+-]\d{6}|\d{4})-?(?:W\d|\d{2,3})/.test(text);
}

export function isValidDateMath(text: string): boolean {
  if (text.startsWith('now')) return validOperations(text.slice(3));
  const anchor = text.indexOf('||');
  if (anchor === -1) return readableDate(text);
  return readableDate(text.slice(0, anchor)) && validOperations(text.slice(anchor + 2));
}
