import type { ExportVariable } from '../kinds/types.js';

/**
 * Secrets outside the places an adapter knows to be secret (connector `secrets`, Fleet password
 * vars): an `Authorization: Bearer ...` in a webhook's `config.headers`, a token in a package
 * policy's text var, a password in a saved object. The server returns those in clear, so an export
 * would write them into a file meant for Git. Every string under a key that names a credential
 * becomes an `${env:NAME}` placeholder instead, listed in variables.txt like the adapters' own.
 */

/** Keys that name a credential, matched anywhere in the key and in any case (`X-Api-Key`, `apiToken`, `Set-Cookie`). */
const SECRET_KEY = /token|passw(?:or)?d|secret|api[-_]?key|authorization|cookie/i;
/** Keys that name where a credential is used or obtained, not the credential (`oauthTokenUrl`). */
const LOCATION_KEY = /ur[il]$/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key) && !LOCATION_KEY.test(key);
}

const PLACEHOLDER = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** `spec.config.headers.Authorization` as the segments of a variable name. */
function nameOf(kindStem: string, objectName: string, path: string[]): string {
  return `SVCFORM_${kindStem}_${objectName}_${path.join('_')}`.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/**
 * The spec with every string under a secret-looking key (and the `value` of an object under one,
 * or of a `{key|name, value}` pair whose key or name looks secret) replaced by a placeholder, and the variables those need.
 * Placeholders an adapter wrote (`declared`) and empty strings are left alone. The input is not
 * modified.
 */
export function placeholdersForSecretFields(
  spec: Record<string, any>,
  owner: { kindStem: string; name: string; declared: ReadonlySet<string> },
): { spec: Record<string, any>; variables: ExportVariable[] } {
  const variables: ExportVariable[] = [];
  const used = new Set(owner.declared);
  const placeholder = (value: string, path: string[]): string => {
    const adapters = PLACEHOLDER.exec(value);
    if (value === '' || (adapters && owner.declared.has(adapters[1]))) return value;
    const base = nameOf(owner.kindStem, owner.name, path);
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
    used.add(name);
    variables.push({ name, description: `${path.join('.')} of ${owner.name}: its key names a credential, so export writes a placeholder, never the value` });
    return `\${env:${name}}`;
  };
  // Under a secret key: a string, each string of a list, and the `value` of an object
  // (`password: {value: ..., type: password}`); the object's other members go by their own keys.
  const walk = (value: unknown, path: string[], secret: boolean): unknown => {
    if (typeof value === 'string') return secret ? placeholder(value, path) : value;
    if (Array.isArray(value)) return value.map((v, i) => walk(v, [...path, String(i)], secret));
    if (!value || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    const label = typeof record.key === 'string' ? record.key : typeof record.name === 'string' ? record.name : undefined;
    // A dotted label names a document field (a rule filter on user.password), not a credential.
    const valueSecret = secret || (label !== undefined && !label.includes('.') && isSecretKey(label));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) out[k] = walk(v, [...path, k], isSecretKey(k) || (valueSecret && k === 'value'));
    return out;
  };
  const out = walk(spec, [], false) as Record<string, any>;
  return variables.length ? { spec: out, variables } : { spec, variables };
}
