/**
 * The texts a secret can turn into on its way to output. A request body carries it raw (a form or
 * a text body) or JSON-escaped (every body svcform sends); a server or a proxy may echo that body
 * as it is, percent-encoded, base64-encoded or hex-encoded; and svcform may print the echo inside
 * JSON (`--json`), escaping it once more. Every form here is a literal substring that output holding
 * the secret in that encoding must contain, whatever surrounds the secret.
 */

/** Shorter forms would redact ordinary words (`get`, `true`); such values are still masked by pointer in plans. */
export const MIN_FORM_LENGTH = 4;

/**
 * Values longer than this get their raw and JSON forms only: a secret file of a megabyte would
 * otherwise register dozens of multi-megabyte encodings. Keys and tokens are far shorter.
 */
export const MAX_ENCODED_VALUE_LENGTH = 64 * 1024;

/** JSON.stringify's escaping, without the quotes. */
export const jsonEscaped = (s: string): string => JSON.stringify(s).slice(1, -1);

/** JSON escaping as ASCII-only serializers write it (`\u00e9`), for values with characters past ASCII. */
function asciiJsonEscaped(s: string): string {
  return jsonEscaped(s).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Percent-encoders differ in the characters they leave alone (besides letters and digits) and in
 * how they write a space. These are the conventions of encodeURIComponent, of HTML forms
 * (URLSearchParams, `+` for a space), of RFC 3986's unreserved set (rawurlencode, Python's quote
 * with safe='') and of Python's default quote (which keeps `/`).
 */
const PERCENT_STYLES: readonly Uint8Array[] = ["-_.!~*'()", '*-._', '-._~', '-._~/'].map((extra) => {
  const keep = new Uint8Array(128);
  for (const c of `ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789${extra}`) keep[c.charCodeAt(0)] = 1;
  return keep;
});

function percentEncoded(bytes: Buffer, keep: Uint8Array, spaceAsPlus: boolean, lowerHex: boolean): string {
  let out = '';
  for (const byte of bytes) {
    if (byte < 0x80 && keep[byte]) out += String.fromCharCode(byte);
    else if (byte === 0x20 && spaceAsPlus) out += '+';
    else {
      const hex = byte.toString(16).padStart(2, '0');
      out += `%${lowerHex ? hex : hex.toUpperCase()}`;
    }
  }
  return out;
}

/**
 * The base64 characters that depend on the secret's bytes alone, for each of the three offsets
 * (modulo 3) the secret may start at in the encoded text. Character k of a base64 text stands for
 * bits 6k..6k+5 of the input; the secret, starting at byte `a`, holds bits 8a..8(a+n)-1, so the
 * characters from ceil(8a/6) up to floor(8(a+n)/6) are the same whatever comes before and after.
 */
function base64Cores(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let a = 0; a < 3; a++) {
    const full = Buffer.concat([Buffer.alloc(a), bytes]).toString('base64');
    const core = full.slice(Math.ceil((8 * a) / 6), Math.floor((8 * (a + bytes.length)) / 6));
    out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/** Each line of a multi-line secret (a PEM key printed in pieces), armour lines excepted. */
function lineForms(value: string): string[] {
  const out: string[] = [];
  for (const line of value.split(/\r?\n/)) {
    const trimmed = line.trim();
    // Lines such as "-----BEGIN PRIVATE KEY-----" are not secret and too common to hide.
    if (trimmed.length >= 8 && !/^-{3,}[A-Z ]+-{3,}$/.test(trimmed)) out.push(trimmed, jsonEscaped(trimmed));
  }
  return out;
}

/**
 * Every form of a secret output may carry, each at least MIN_FORM_LENGTH long. A value shorter
 * than that keeps the forms it always had (as is, JSON-escaped once and twice, encodeURIComponent,
 * whole base64) where those are long enough: its encodings are short enough to hit unrelated text.
 */
export function secretForms(value: string): string[] {
  const forms = new Set<string>();
  const once = jsonEscaped(value);
  for (const form of [value, once, jsonEscaped(once), encodeURIComponent(value), Buffer.from(value, 'utf8').toString('base64')]) forms.add(form);
  if (/[\r\n]/.test(value)) for (const form of lineForms(value)) forms.add(form);
  if (value.length >= MIN_FORM_LENGTH && value.length <= MAX_ENCODED_VALUE_LENGTH) {
    // As a request body carries it: raw, or escaped by the JSON serializer that wrote the body;
    // then printed as it is or escaped once or twice more (an error body quoting the body, inside
    // svcform's JSON output).
    for (const carried of new Set([value, once, asciiJsonEscaped(value)])) {
      forms.add(carried);
      forms.add(jsonEscaped(carried));
      forms.add(jsonEscaped(jsonEscaped(carried)));
      const bytes = Buffer.from(carried, 'utf8');
      for (const keep of PERCENT_STYLES) {
        for (const plus of [false, true]) for (const lower of [false, true]) forms.add(percentEncoded(bytes, keep, plus, lower));
      }
      for (const core of base64Cores(bytes)) forms.add(core);
      const hex = bytes.toString('hex');
      forms.add(hex);
      forms.add(hex.toUpperCase());
    }
  }
  return [...forms].filter((f) => f.length >= MIN_FORM_LENGTH);
}
