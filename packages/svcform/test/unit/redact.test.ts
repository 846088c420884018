import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor, SENSITIVE } from '../../src/manifest/redact.js';
import { MAX_ENCODED_VALUE_LENGTH } from '../../src/manifest/secret-forms.js';

/**
 * Issue 31 (encoded echoes): a server or proxy echoing the request body in an error, URL-encoded,
 * base64-encoded at any alignment or hex-encoded, must not get a secret printed. The encoders here
 * are the platform's own (encodeURIComponent, URLSearchParams, Buffer), not svcform's.
 */

const SECRETS = [
  'S3cr"et\\with/slash+plus and space',
  "tok!en*('x')~émoji-ü",
  'plainAlnumToken0123456789',
  'a/b c',
];

/** A request body as svcform sends it: the secret JSON-escaped among other fields. */
const bodyWith = (secret: string) => JSON.stringify({ name: 'Hook', connector_type_id: '.webhook', secrets: { user: 'u', password: secret }, config: { url: 'https://h.example.com/x' } });

const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const URL_ENCODERS: Record<string, (s: string) => string> = {
  'encodeURIComponent (%20, upper hex)': encodeURIComponent,
  'encodeURIComponent, lower hex': (s) => lowerHex(encodeURIComponent(s)),
  'encodeURIComponent with + for space': (s) => encodeURIComponent(s).replace(/%20/g, '+'),
  'URLSearchParams (+ for space)': (s) => new URLSearchParams({ b: s }).toString().slice(2),
  'URLSearchParams, lower hex': (s) => lowerHex(new URLSearchParams({ b: s }).toString().slice(2)),
  'URLSearchParams with %20': (s) => new URLSearchParams({ b: s }).toString().slice(2).replace(/\+/g, '%20'),
  'RFC 3986 unreserved only': (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
  'RFC 3986, + for space, lower hex': (s) => lowerHex(encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)).replace(/%20/g, '+'),
};

/**
 * The positions of an encoded text that change when every bit of the secret flips: what the
 * secret contributes to it, found without knowing how the redactor computes its forms.
 */
function secretPositions(encode: (bytes: Buffer) => string, before: Buffer, secret: Buffer, after: Buffer): number[] {
  const a = encode(Buffer.concat([before, secret, after]));
  const b = encode(Buffer.concat([before, Buffer.from(secret.map((x) => x ^ 0xff)), after]));
  assert.equal(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) out.push(i);
  return out;
}

/** The [start, end) of the original text that one SENSITIVE replaced. */
function hiddenSpan(original: string, redacted: string): [number, number] {
  const at = redacted.indexOf(SENSITIVE);
  assert.ok(at >= 0, `nothing redacted in ${redacted}`);
  assert.equal(redacted.indexOf(SENSITIVE, at + 1), -1, `one span only: ${redacted}`);
  const tail = redacted.length - at - SENSITIVE.length;
  assert.equal(redacted.slice(0, at), original.slice(0, at));
  assert.equal(redacted.slice(at + SENSITIVE.length), original.slice(original.length - tail));
  return [at, original.length - tail];
}

describe('the redactor hides every encoding of a secret (issue 31: encoded echoes)', () => {
  it('raw, JSON-escaped once and twice, and inside a JSON-escaped body', () => {
    for (const secret of SECRETS) {
      const r = new Redactor();
      r.add(secret);
      const body = bodyWith(secret);
      for (const text of [secret, body, JSON.stringify(body), JSON.stringify(JSON.stringify(body)), `error: cannot use ${body}`]) {
        const red = r.redact(text);
        assert.ok(red.includes(SENSITIVE), text);
        assert.ok(!red.includes(secret) && !red.includes(JSON.stringify(secret).slice(1, -1)), red);
      }
    }
  });

  for (const [style, encode] of Object.entries(URL_ENCODERS)) {
    it(`a percent-encoded echo of the body: ${style}`, () => {
      for (const secret of SECRETS) {
        const r = new Redactor();
        r.add(secret);
        const escaped = JSON.stringify(secret).slice(1, -1);
        const [head, tail] = bodyWith(secret).split(escaped);
        // Percent-encoding is character by character: exactly the secret's part is hidden.
        for (const carried of [escaped, secret]) {
          const original = `echo ${encode(head + carried + tail)}`;
          assert.equal(r.redact(original), `echo ${encode(head)}${SENSITIVE}${encode(tail)}`, `${style}: ${JSON.stringify(secret)}`);
        }
      }
    });
  }

  for (const urlSafe of [false, true]) {
    it(`a base64 echo at every offset (${urlSafe ? 'URL-safe' : 'standard'} alphabet) leaves at most the two characters that mix the secret with its neighbours`, () => {
      const encode = (b: Buffer) => b.toString(urlSafe ? 'base64url' : 'base64');
      for (const secret of SECRETS) {
        const r = new Redactor();
        r.add(secret);
        const escaped = Buffer.from(JSON.stringify(secret).slice(1, -1));
        // Prefixes of 0..5 bytes put the secret at each of the three alignments, twice.
        for (let shift = 0; shift < 6; shift++) {
          const [head, tail] = bodyWith(secret).split(JSON.stringify(secret).slice(1, -1));
          const before = Buffer.from('x'.repeat(shift) + head);
          const after = Buffer.from(tail);
          const original = encode(Buffer.concat([before, escaped, after]));
          const changed = secretPositions(encode, before, escaped, after);
          const [start, end] = hiddenSpan(original, r.redact(original));
          const shown = changed.filter((i) => i < start || i >= end);
          assert.ok(shown.length <= 2, `shift ${shift}: ${shown.length} characters of the secret shown`);
          for (const i of shown) assert.ok(i === start - 1 || i === end, `shift ${shift}: position ${i} shown outside the edges of [${start}, ${end})`);
        }
      }
    });
  }

  it('a hex echo, lower and upper case, hides every character that depends on the secret', () => {
    for (const secret of SECRETS) {
      const r = new Redactor();
      r.add(secret);
      const escaped = Buffer.from(JSON.stringify(secret).slice(1, -1));
      const [head, tail] = bodyWith(secret).split(JSON.stringify(secret).slice(1, -1));
      for (const upper of [false, true]) {
        const encode = (b: Buffer) => (upper ? b.toString('hex').toUpperCase() : b.toString('hex'));
        const before = Buffer.from(head);
        const after = Buffer.from(tail);
        const original = encode(Buffer.concat([before, escaped, after]));
        const [start, end] = hiddenSpan(original, r.redact(original));
        assert.deepEqual(
          secretPositions(encode, before, escaped, after).filter((i) => i < start || i >= end),
          [],
        );
      }
    }
  });

  it('text without a secret comes back as it was, and overlapping secrets are hidden as one', () => {
    const r = new Redactor();
    r.add('first-secret-value');
    r.add('value-and-second');
    const text = 'plan: ~ Connector/soc-hook (space default)\n  config.url: "https://h.example.com/x"';
    assert.equal(r.redact(text), text);
    assert.equal(r.redact('x first-secret-value-and-second y'), `x ${SENSITIVE} y`);
  });

  it('short secrets keep the rule they had: under 4 characters nothing, from 4 on their raw and basic forms', () => {
    const r = new Redactor();
    r.add('get');
    assert.equal(r.size, 1, 'only the base64 of a 3-character value (4 characters) was ever registered');
    assert.equal(r.redact('method: get'), 'method: get');
    r.add('p4ss');
    assert.equal(r.redact('user:p4ss, basic cDRzcw=='), `user:${SENSITIVE}, basic ${SENSITIVE}`);
  });

  it('a value longer than the encoding limit is hidden raw and JSON-escaped, without its encodings', () => {
    const big = 'k'.repeat(MAX_ENCODED_VALUE_LENGTH) + '"tail';
    const r = new Redactor();
    r.add(big);
    assert.equal(r.redact(`x ${JSON.stringify(big)} y`), `x "${SENSITIVE}" y`);
    assert.ok(r.size <= 5, `${r.size} forms`);
  });

  it('redactValue hides secrets in strings and keys and never turns a number into text', () => {
    const r = new Redactor();
    r.add('abcd'); // its hex form, 61626364, is all digits
    const value = { ms: 61626364, note: 'token abcd in 61626364', abcd: [1, 'abcd'] };
    assert.deepEqual(r.redactValue(value), { ms: 61626364, note: `token ${SENSITIVE} in ${SENSITIVE}`, [SENSITIVE]: [1, SENSITIVE] });
  });
});
