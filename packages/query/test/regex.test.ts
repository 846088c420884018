import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileRegex, EQL_REGEX, EQL_REGEX_INSENSITIVE, isRegexProblem, QUERY_STRING_REGEX, type CompiledRegex, type RegexOptions } from '../src/regex/index.js';
import { parseWildcardText, wildcardMatcher } from '../src/regex/wildcard.js';

/**
 * Lucene RegExp syntax and semantics (lucene/core/src/java/org/apache/lucene/util/automaton/RegExp.java;
 * wire-facts §16 #14), with patterns written for these tests. Each expectation follows the
 * grammar and flags documented there: the backend's regexp query (eql) enables ALL plus the
 * complement, query_string's `/regex/` ALL alone.
 */

function compiled(pattern: string, options: RegexOptions = EQL_REGEX): CompiledRegex {
  const regex = compileRegex(pattern, options);
  assert.ok(!isRegexProblem(regex), `${pattern}: ${isRegexProblem(regex) ? regex.message : ''}`);
  return regex;
}

function refusal(pattern: string, options: RegexOptions = EQL_REGEX): { index: number; message: string } {
  const regex = compileRegex(pattern, options);
  assert.ok(isRegexProblem(regex), `${pattern} compiled`);
  return { index: regex.index, message: regex.message };
}

const accepts = (pattern: string, texts: string[], options?: RegexOptions) => texts.filter((t) => compiled(pattern, options).test(t));

describe('Lucene regular expressions', () => {
  it('a backslash before any non-letter is that character: \\- \\_ \\= \\: \\" \\. \\\\', () => {
    for (const [escape, char] of [['\\-', '-'], ['\\_', '_'], ['\\=', '='], ['\\:', ':'], ['\\"', '"'], ['\\.', '.'], ['\\\\', '\\'], ['\\/', '/']]) {
      assert.deepEqual(accepts(`a${escape}b`, [`a${char}b`, 'axb', 'ab']), [`a${char}b`], escape);
      // Inside a class too, where the escaped character never starts a range.
      assert.deepEqual(accepts(`[${escape}x]`, [char, 'x', 'y']), [char, 'x'], `[${escape}x]`);
    }
    // A drive path as rules write it: [C-Z]:\\Windows\\...\\[a-zA-Z0-9\-\_\.]+\.exe
    const path = compiled('[C-Z]:\\\\Windows\\\\(System32|SysWOW64)\\\\[a-zA-Z0-9\\-\\_\\.]+\\.exe');
    assert.equal(path.test('D:\\Windows\\SysWOW64\\my-tool_v1.2.exe'), true);
    assert.equal(path.test('D:\\Windows\\Temp\\tool.exe'), false);
  });

  it('refuses a backslash before a letter other than d D s S w W, as Lucene does (\\n, \\t)', () => {
    assert.deepEqual(refusal('ab\\n'), { index: 2, message: 'unknown escape "\\n": before a letter only \\d \\D \\s \\S \\w \\W are known (a backslash before any other character makes it literal)' });
    assert.equal(refusal('[\\t]').index, 1);
    assert.deepEqual(accepts('\\d+\\s\\w\\W\\D\\S', ['12 a-xy', '12 a-1y', '1\ta!x!']), ['12 a-xy', '1\ta!x!']);
  });

  it('matches the whole value: no anchors, and reserved characters where no operator starts are literal', () => {
    assert.deepEqual(accepts('b.', ['bc', 'abc', 'bcd']), ['bc']);
    assert.deepEqual(accepts('*a', ['*a', 'a', 'aa']), ['*a']);
    assert.deepEqual(accepts('{a]', ['{a]']), ['{a]']);
    assert.deepEqual(accepts('', ['', 'a']), ['']);
    assert.deepEqual(accepts('()x', ['x']), ['x']);
  });

  it('"..." is a literal string; # the empty language; @ any string; & an intersection', () => {
    assert.deepEqual(accepts('"a.b*"c', ['a.b*c', 'axbc']), ['a.b*c']);
    assert.deepEqual(accepts('a|#', ['a', '', '#']), ['a']);
    assert.deepEqual(accepts('x@', ['x', 'xyz', 'y']), ['x', 'xyz']);
    assert.deepEqual(accepts('.*a.*&.*b.*', ['ab', 'ba', 'aa', 'b']), ['ab', 'ba']);
  });

  it('<n-m> is a decimal interval: bounds of one width need zero-padded values, else leading zeros are free', () => {
    assert.deepEqual(accepts('<1-10>', ['1', '7', '10', '11', '0', '007', '']), ['1', '7', '10', '007']);
    assert.deepEqual(accepts('<01-10>', ['1', '07', '10', '11', '007']), ['07', '10']);
    // Bounds the wrong way round are swapped.
    assert.deepEqual(accepts('port<100-8>', ['port8', 'port50', 'port101']), ['port8', 'port50']);
    assert.deepEqual(refusal('<1-x>'), { index: 0, message: 'invalid numeric range "<1-x>" (write <min-max>, e.g. <1-10>)' });
    assert.equal(refusal('a<name>').index, 1, 'a named automaton: the backend has none');
  });

  it('~ is the complement in eql (the regexp query enables it) and a plain character in query_string', () => {
    assert.deepEqual(accepts('~(.*\\.exe)', ['a.exe', 'a.dll', '']), ['a.dll', '']);
    assert.deepEqual(accepts('~a', ['a', '~a', 'b'], QUERY_STRING_REGEX), ['~a']);
  });

  it('repetitions {n}, {n,}, {n,m}, and refuses a minimum above the maximum', () => {
    assert.deepEqual(accepts('a{2}', ['a', 'aa', 'aaa']), ['aa']);
    assert.deepEqual(accepts('a{2,}', ['a', 'aa', 'aaaa']), ['aa', 'aaaa']);
    assert.deepEqual(accepts('(ab){1,2}', ['', 'ab', 'abab', 'ababab']), ['ab', 'abab']);
    assert.deepEqual(refusal('xa{3,2}'), { index: 2, message: 'invalid repetition {3,2}: the minimum is above the maximum' });
    assert.deepEqual(refusal('a{x}'), { index: 2, message: 'expected a number after "{"' });
  });

  it('refuses unbalanced brackets at the bracket, a stray ) where it stands, and an unclosed quote', () => {
    assert.deepEqual(refusal('ab(cd'), { index: 2, message: '"(" is never closed' });
    assert.deepEqual(refusal('a(b|[cd'), { index: 4, message: '"[" is never closed' });
    assert.deepEqual(refusal('ab)'), { index: 2, message: 'unmatched ")"' });
    assert.deepEqual(refusal('[^'), { index: 0, message: '"[" is never closed' });
    assert.equal(refusal('a"bc').index, 1);
    assert.equal(refusal('[z-a]').index, 1);
    assert.equal(refusal('a|').message, 'the pattern ends where a character was expected');
    // The backend's recursive reader runs out of stack too: a problem, not a crash of the validation.
    assert.equal(refusal(`${'('.repeat(50_000)}a${')'.repeat(50_000)}`).message, 'the pattern is nested too deeply to read');
  });

  it('regex~ folds single characters and strings to every case form, not ranges', () => {
    assert.deepEqual(accepts('cmd\\.EXE', ['CMD.exe', 'cmd.EXE', 'cmd.ex'], EQL_REGEX_INSENSITIVE), ['CMD.exe', 'cmd.EXE']);
    assert.deepEqual(accepts('[a-c]x', ['bX', 'Bx'], EQL_REGEX_INSENSITIVE), ['bX']);
    assert.deepEqual(accepts('[^a]', ['A', 'a', 'b'], EQL_REGEX_INSENSITIVE), ['b']);
    // Lucene's case folding (CaseFolding): k also matches the Kelvin sign, σ matches ς and Σ.
    assert.deepEqual(accepts('k"σ"', ['K\u03c2', '\u212a\u03a3', 'kx'], EQL_REGEX_INSENSITIVE), ['K\u03c2', '\u212a\u03a3']);
    assert.deepEqual(accepts('cmd', ['CMD']), []);
  });

  it('reads characters as code points: . is one character beyond the basic plane too', () => {
    assert.deepEqual(accepts('a.b', ['a\u{1F600}b', 'a\u{1F600}\u{1F600}b']), ['a\u{1F600}b']);
  });

  it('matches in time linear in the value: (a+)+b over 40 characters is a handful of steps', () => {
    const nested = compiled('(a+)+b');
    assert.equal(nested.test('a'.repeat(40)), false);
    assert.equal(nested.test(`${'a'.repeat(40)}b`), true);
    // A backtracking engine tries about 2^40 ways; the DFA has three states and four transitions.
    assert.ok(nested.derivations <= 4, `${nested.derivations} derivations`);
    const counted = compiled('(.*a){12}x');
    const started = Date.now();
    assert.equal(counted.test('a'.repeat(20_000)), false);
    assert.ok(counted.derivations < 50, `${counted.derivations} derivations`);
    assert.ok(Date.now() - started < 1000);
  });
});

describe('wildcards without backtracking', () => {
  it('* is any run, ? one character, a backslash makes the next character literal', () => {
    const test = (pattern: string, text: string, insensitive = false) => wildcardMatcher(parseWildcardText(pattern), insensitive).test(text);
    assert.equal(test('a*b?d', 'axxbcd'), true);
    assert.equal(test('a*b?d', 'axxbd'), false);
    assert.equal(test('a\\*', 'a*'), true);
    assert.equal(test('a\\*', 'ab'), false);
    assert.equal(test('?', '\u{1F600}'), true);
    assert.equal(test('CMD*', 'cmd.exe', true), true);
    assert.equal(test('CMD*', 'cmd.exe', false), false);
  });

  it('decides a value of 60 characters against 15 stars at once', () => {
    const pattern = `${'*a'.repeat(15)}*b`;
    const value = 'a'.repeat(60);
    const started = Date.now();
    // A JavaScript RegExp of this pattern backtracks through about C(60,15) placements.
    assert.equal(wildcardMatcher(parseWildcardText(pattern), false).test(value), false);
    assert.equal(wildcardMatcher(parseWildcardText(pattern), true).test(`${value}B`), true);
    assert.ok(Date.now() - started < 1000);
  });
});
