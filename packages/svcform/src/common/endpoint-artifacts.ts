/**
 * The endpoint artifact lists: exception lists of endpoint types with a fixed list_id, whose items
 * the server checks beyond the exception-item schema (security_solution
 * server/lists_integration/endpoint/validators/: trusted_app_validator.ts, blocklist_validator.ts,
 * host_isolation_exceptions_validator.ts, event_filter_validator.ts, and base_validator.ts's
 * BasicEndpointExceptionDataSchema). svcform checks manifests offline with these
 * rules, and the emulator refuses the items the real server refuses.
 * svcform's copy; the emulator keeps its own (packages/emulator/src/facts/), so a wrong value on
 * either side fails the conformance tests instead of agreeing by construction.
 */

export interface ArtifactList {
  type: string;
  listId: string;
  /** How people call it in messages. */
  label: string;
}

/** The fixed list_id of each endpoint list type (@kbn/securitysolution-list-constants). */
export const ENDPOINT_LISTS: readonly ArtifactList[] = [
  { type: 'endpoint', listId: 'endpoint_list', label: 'endpoint exceptions' },
  { type: 'endpoint_trusted_apps', listId: 'endpoint_trusted_apps', label: 'trusted applications' },
  { type: 'endpoint_events', listId: 'endpoint_event_filters', label: 'event filters' },
  { type: 'endpoint_blocklists', listId: 'endpoint_blocklists', label: 'blocklist' },
  { type: 'endpoint_host_isolation_exceptions', listId: 'endpoint_host_isolation_exceptions', label: 'host isolation exceptions' },
];

export const endpointListOfType = (type: string) => ENDPOINT_LISTS.find((l) => l.type === type);
export const endpointListOfId = (listId: string) => ENDPOINT_LISTS.find((l) => l.listId === listId);

/** A problem of one item; `path` is relative to the item (e.g. ['entries', 0, 'field']). */
export interface ArtifactIssue {
  path: Array<string | number>;
  message: string;
}

type Entry = Record<string, any>;
type Item = { name?: unknown; os_types?: unknown; entries?: unknown };

const OS = ['windows', 'linux', 'macos'];
const HASH_LENGTH: Record<string, number> = { md5: 32, sha1: 40, sha256: 64 };

/** validations.ts isValidHash: 32, 40 or 64 hexadecimal digits. */
export const isValidHash = (v: unknown) => typeof v === 'string' && /^[0-9a-f]+$/i.test(v) && Object.values(HASH_LENGTH).includes(v.length);

/** is_valid_ip.ts isValidIPv4OrCIDR: dotted quad, optionally with a /0-32 prefix. */
export function isValidIPv4OrCIDR(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/.exec(v);
  if (!m) return false;
  if (m.slice(1, 5).some((o) => Number(o) > 255)) return false;
  return m[5] === undefined || Number(m[5]) <= 32;
}

/** BasicEndpointExceptionDataSchema: a name, and exactly one operating system (host isolation: all three). */
function basicIssues(item: Item, allOs: boolean): ArtifactIssue[] {
  const out: ArtifactIssue[] = [];
  if (typeof item.name !== 'string' || item.name.length === 0) out.push({ path: ['name'], message: 'a name is required' });
  const os = Array.isArray(item.os_types) ? item.os_types : [];
  if (allOs) {
    if (os.length !== 3 || !OS.every((o) => os.includes(o))) out.push({ path: ['os_types'], message: 'host isolation exceptions apply to every operating system: os_types must be [windows, linux, macos]' });
  } else if (os.length !== 1 || !OS.includes(os[0])) {
    out.push({ path: ['os_types'], message: 'exactly one operating system is required (one of windows, linux, macos)' });
  }
  return out;
}

const at = (i: number, ...rest: Array<string | number>) => ['entries', i, ...rest];

/** Trusted applications: process hashes, the executable path (match or wildcard) and, on Windows, the signer. */
function trustedAppIssues(entries: Entry[], os: string): ArtifactIssue[] {
  const out: ArtifactIssue[] = [];
  const seen = new Set<string>();
  entries.forEach((e, i) => {
    if (seen.has(e.field)) out.push({ path: at(i, 'field'), message: `Duplicated entry: ${e.field}` });
    seen.add(e.field);
    if (e.type === 'nested' && e.field === 'process.Ext.code_signature') {
      if (os !== 'windows') out.push({ path: at(i, 'field'), message: 'process.Ext.code_signature (the signer) is allowed on Windows only' });
      const inner: Entry[] = Array.isArray(e.entries) ? e.entries : [];
      const trusted = inner.filter((x) => x.field === 'trusted' && x.value === 'true' && x.type === 'match' && x.operator === 'included');
      const subject = inner.filter((x) => x.field === 'subject_name' && typeof x.value === 'string' && x.value.length > 0 && x.type === 'match' && x.operator === 'included');
      if (inner.length !== 2 || trusted.length !== 1 || subject.length !== 1) {
        out.push({ path: at(i, 'entries'), message: 'a signer entry holds exactly two match entries: trusted = "true" and subject_name' });
      }
      return;
    }
    const hash = /^process\.hash\.(md5|sha1|sha256)$/.exec(String(e.field));
    const path = e.field === 'process.executable.caseless';
    if (!hash && !path) {
      out.push({ path: at(i, 'field'), message: `trusted applications match on process.hash.md5, process.hash.sha1, process.hash.sha256, process.executable.caseless${os === 'windows' ? ' or process.Ext.code_signature' : ''}, not ${JSON.stringify(e.field)}` });
      return;
    }
    if (e.operator !== 'included') out.push({ path: at(i, 'operator'), message: 'trusted application entries use operator "included"' });
    if (path ? e.type !== 'match' && e.type !== 'wildcard' : e.type !== 'match') out.push({ path: at(i, 'type'), message: path ? 'a path entry is of type match or wildcard' : 'a hash entry is of type match' });
    if (hash && !isValidHash(e.value)) out.push({ path: at(i, 'value'), message: `invalid hash value [${e.value}]` });
    if (path && (typeof e.value !== 'string' || e.value.length === 0)) out.push({ path: at(i, 'value'), message: `invalid path value [${e.value ?? ''}]` });
  });
  return out;
}

/**
 * Blocklists (blocklist_validator.ts): entries on file hashes (at most the three hash types), or one
 * entry on a path (file.path or file.path.caseless) or, on Windows, on the signer. Hash and path
 * entries are match_any with operator "included" and 1 to 2,000 values; a signer entry is a match
 * (one value) or a match_any on subject_name.
 */
function blocklistIssues(entries: Entry[], os: string): ArtifactIssue[] {
  const out: ArtifactIssue[] = [];
  const nonEmpty = (v: unknown) => typeof v === 'string' && v.length > 0;
  entries.forEach((e, i) => {
    if (e.type === 'nested' && e.field === 'file.Ext.code_signature') {
      if (os !== 'windows') out.push({ path: at(i, 'field'), message: 'file.Ext.code_signature (the signer) is allowed on Windows only' });
      (Array.isArray(e.entries) ? e.entries : []).forEach((x: Entry, j: number) => {
        const value = x.type === 'match' ? nonEmpty(x.value) : x.type === 'match_any' && Array.isArray(x.value) && x.value.length > 0 && x.value.every(nonEmpty);
        const ok = x.field === 'subject_name' && x.operator === 'included' && value;
        if (!ok) out.push({ path: at(i, 'entries', j), message: 'a signer entry is a match (one value) or a match_any on subject_name with operator "included"' });
      });
      return;
    }
    const hash = BLOCKLIST_HASH.test(String(e.field));
    const path = e.field === 'file.path' || e.field === 'file.path.caseless';
    if (!hash && !path) {
      out.push({ path: at(i, 'field'), message: `blocklist entries match on file.hash.md5, file.hash.sha1, file.hash.sha256, file.path, file.path.caseless${os === 'windows' ? ' or file.Ext.code_signature' : ''}, not ${JSON.stringify(e.field)}` });
      return;
    }
    if (e.type !== 'match_any') out.push({ path: at(i, 'type'), message: 'blocklist entries are of type match_any' });
    if (e.operator !== 'included') out.push({ path: at(i, 'operator'), message: 'blocklist entries use operator "included"' });
    const values: unknown[] = Array.isArray(e.value) ? e.value : [];
    if (values.length === 0 || values.length > 2000) out.push({ path: at(i, 'value'), message: 'a blocklist entry holds 1 to 2,000 values' });
    values.forEach((v, j) => {
      if (hash && !isValidHash(v)) out.push({ path: at(i, 'value', j), message: `invalid hash value [${v}]` });
      if (path && !nonEmpty(v)) out.push({ path: at(i, 'value', j), message: `invalid path value [${v}]` });
    });
  });
  const fields = entries.map((e) => String(e.field));
  if (entries.length > 0 && BLOCKLIST_HASH.test(fields[0])) {
    if (fields.length > 3) out.push({ path: ['entries'], message: 'There are more hash types than allowed [md5,sha1,sha256]' });
    const notHash = fields.filter((f) => !BLOCKLIST_HASH.test(f));
    if (notHash.length) out.push({ path: ['entries'], message: `There are some invalid fields for hash type: ${notHash.join(',')}` });
  } else if (entries.length > 1) {
    out.push({ path: ['entries'], message: 'Only one entry is allowed when not using hash field type' });
  }
  return out;
}

const BLOCKLIST_HASH = /^file\.hash\.(md5|sha1|sha256)$/;

/** Host isolation exceptions: exactly one entry, a match on destination.ip of an IPv4 address or CIDR. */
function hostIsolationIssues(entries: Entry[]): ArtifactIssue[] {
  if (entries.length !== 1) return [{ path: ['entries'], message: 'a host isolation exception holds exactly one entry (destination.ip)' }];
  const e = entries[0];
  const out: ArtifactIssue[] = [];
  if (e.field !== 'destination.ip') out.push({ path: at(0, 'field'), message: `host isolation exceptions match on destination.ip only, not ${JSON.stringify(e.field)}` });
  if (e.type !== 'match') out.push({ path: at(0, 'type'), message: 'the destination.ip entry is of type match' });
  if (e.operator !== 'included') out.push({ path: at(0, 'operator'), message: 'the destination.ip entry uses operator "included"' });
  if (!isValidIPv4OrCIDR(e.value)) out.push({ path: at(0, 'value'), message: `invalid ip: ${e.value}` });
  return out;
}

/**
 * What the server refuses in an item of the endpoint artifact list `listId` (none for other lists).
 * The endpoint exceptions list (`endpoint_list`) has no artifact validator of its own.
 */
export function artifactItemIssues(listId: string, item: Item): ArtifactIssue[] {
  const list = endpointListOfId(listId);
  if (!list || list.type === 'endpoint') return [];
  const entries: Entry[] = Array.isArray(item.entries) ? item.entries : [];
  const hostIsolation = list.type === 'endpoint_host_isolation_exceptions';
  const basic = basicIssues(item, hostIsolation);
  const os = Array.isArray(item.os_types) ? String(item.os_types[0]) : '';
  if (entries.length === 0 && list.type !== 'endpoint_events') basic.push({ path: ['entries'], message: 'at least one entry is required' });
  switch (list.type) {
    case 'endpoint_trusted_apps':
      return [...basic, ...trustedAppIssues(entries, os)];
    case 'endpoint_blocklists':
      return [...basic, ...blocklistIssues(entries, os)];
    case 'endpoint_host_isolation_exceptions':
      return [...basic, ...hostIsolationIssues(entries)];
    default:
      return basic;
  }
}
