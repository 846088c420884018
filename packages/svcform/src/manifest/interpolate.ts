import { MAX_REFERENCE_BYTES, readConfinedFile } from './confined-file.js';
import type { Redactor } from './redact.js';
import type { Diagnostic, DocPath, Resource, SourcePos } from './types.js';
import { shortText } from './short-text.js';
import { displayField } from './schema.js';
import { scanDocument, type DocumentScan } from './scan.js';
import { fieldLabel, formatPointer } from '../common/pointer.js';

/**
 * The environment variables svcform itself reads its credentials from (src/cli/context.ts, and the
 * emulator's key). A manifest may not interpolate them: the value would be written into a field
 * the server shows to anyone who can read the object (a connector's name, a rule's description),
 * and it would hand svcform's own credential to whatever the manifest sends it to.
 */
export const CREDENTIAL_VARIABLES: readonly string[] = ['SVC_API_KEY', 'SVC_USERNAME', 'SVC_PASSWORD', 'SVC_TOKEN', 'SVC_EMULATOR_API_KEY'];

export interface InterpolationContext {
  env: NodeJS.ProcessEnv;
  /** Directory of the manifest: base of ${file:...} paths. */
  dir: string;
  /** The repository root: ${file:...} reads only regular files inside it (confined-file.ts). */
  root: string;
  redactor: Redactor;
  posOf(path: DocPath): SourcePos;
  subject?: string;
  /**
   * `validate --offline-secrets`: a variable that is not set, or a secret file that does not exist,
   * is a warning, and the string is left as written (its schema checks skipped), so pull requests
   * from forks, which get no secrets, still validate. Files outside the root stay errors.
   */
  offlineSecrets?: boolean;
  /**
   * Whether the string at a path is write-only (a connector's `secrets`: never returned, never
   * compared; KindRules.writeOnly). A variable that is not set or a secret file that does not
   * exist there is no finding: the string is left as written and listed in `deferredPaths`, and
   * only the apply that writes the object needs the value (resolveDeferred).
   */
  deferrable?(path: DocPath): boolean;
  /** Variables that may not be referenced (manifests: CREDENTIAL_VARIABLES; svcform.yaml may name them). */
  refusedVariables?: readonly string[];
}

export interface InterpolationResult {
  value: unknown;
  /** Paths (from the document root) of strings that now hold secret material. */
  secretPaths: DocPath[];
  /** Paths of strings left as written because a reference in them failed (their errors are in diagnostics). */
  failedPaths: DocPath[];
  /** Write-only strings left as written because a variable or secret file was missing (see `deferrable`). */
  deferredPaths: DocPath[];
  diagnostics: Diagnostic[];
}

type Piece = { text: string } | { escape: true } | { source: 'env' | 'file'; arg: string };

/**
 * The pieces of a string: literal text, `$${` (a literal `${`), and ${env:...} / ${file:...}
 * references; other `${...}` text (a query, a template) is literal. One pass, linear in the
 * length: a reference without its closing brace ends the search, as no later one could close.
 */
function pieces(s: string): Piece[] {
  const out: Piece[] = [];
  let literal = 0;
  let i = s.indexOf('$');
  while (i >= 0 && i < s.length) {
    if (s.startsWith('$${', i)) {
      if (i > literal) out.push({ text: s.slice(literal, i) });
      out.push({ escape: true });
      literal = i + 3;
      i = s.indexOf('$', literal);
      continue;
    }
    const source = s.startsWith('${env:', i) ? 'env' : s.startsWith('${file:', i) ? 'file' : undefined;
    if (source) {
      const close = s.indexOf('}', i);
      if (close < 0) break;
      if (i > literal) out.push({ text: s.slice(literal, i) });
      out.push({ source, arg: s.slice(i + source.length + 3, close) });
      literal = close + 1;
      i = s.indexOf('$', literal);
      continue;
    }
    i = s.indexOf('$', i + 1);
  }
  if (literal < s.length) out.push({ text: s.slice(literal) });
  return out;
}

/** `spec.config.headers.Authorization`: the field a string sits in, for messages. */
function labelOf(path: DocPath): string {
  return path.length === 0 ? 'the document' : fieldLabel(formatPointer(path.slice(1).map(String)), String(path[0]));
}

/**
 * Replaces ${env:NAME} and ${file:path} in every string of a document (the input is not modified;
 * unchanged parts are shared with it). A missing variable or an unreadable file is an error at the
 * string's position; so is a file outside the repository root, one that is not a regular file, and
 * one over MAX_REFERENCE_BYTES. File contents lose one trailing newline, as secret files are
 * usually written with one.
 */
export function interpolate(root: unknown, ctx: InterpolationContext, templated: DocumentScan['templated'] = scanDocument(root).templated): InterpolationResult {
  const secretPaths: DocPath[] = [];
  const failedPaths: DocPath[] = [];
  const deferredPaths: DocPath[] = [];
  const diagnostics: Diagnostic[] = [];
  const fileCache = new Map<string, string | Error>();

  const readSecretFile = (rel: string): string | Error => {
    const key = `${ctx.dir}\u0000${rel}`;
    if (!fileCache.has(key)) {
      const read = readConfinedFile(rel, { root: ctx.root, base: ctx.dir, maxBytes: MAX_REFERENCE_BYTES });
      const shown = shortText(rel);
      fileCache.set(
        key,
        read.text !== undefined
          ? read.text.replace(/\r?\n$/, '')
          : new Error(read.error === 'no such file' ? `file not found: ${shown}` : read.error.startsWith('it ') ? `${shown} ${read.error.slice(3)}` : `cannot read ${shown}: ${read.error}`),
      );
    }
    return fileCache.get(key)!;
  };

  const visitString = (s: string, path: DocPath): string => {
    let secret = false;
    let unresolved = false;
    const deferrable = ctx.deferrable?.(path) ?? false;
    const failuresBefore = diagnostics.length;
    let out = '';
    for (const piece of pieces(s)) {
      if ('text' in piece) {
        out += piece.text;
        continue;
      }
      if ('escape' in piece) {
        out += '${';
        continue;
      }
      const name = piece.arg.trim();
      const written = `\${${piece.source}:${shortText(name)}}`;
      if (piece.source === 'env') {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
          diagnostics.push(diag(path, `${written}: not a valid environment variable name`));
          continue;
        }
        if (ctx.refusedVariables?.includes(name)) {
          diagnostics.push(diag(path, `${written} in ${labelOf(path)}: ${name} is svcform's own credential and may not be interpolated into a manifest (the server would keep it where others can read it, or send it on); give the value a variable of its own`));
          continue;
        }
        const v = ctx.env[name];
        if (v === undefined) {
          if (deferrable) unresolved = true;
          else if (ctx.offlineSecrets) {
            diagnostics.push(warn(path, `environment variable ${name} is not set (referenced as ${written}); checked without it (--offline-secrets)`));
            unresolved = true;
          } else diagnostics.push(diag(path, `environment variable ${name} is not set (referenced as ${written})`));
          continue;
        }
        secret = true;
        ctx.redactor.add(v);
        out += v;
        continue;
      }
      if (name === '') {
        diagnostics.push(diag(path, '${file:}: a path is required'));
        continue;
      }
      const content = readSecretFile(name);
      if (content instanceof Error) {
        if (deferrable && content.message.startsWith('file not found')) unresolved = true;
        else if (ctx.offlineSecrets && content.message.startsWith('file not found')) {
          diagnostics.push(warn(path, `${written}: ${content.message}; checked without it (--offline-secrets)`));
          unresolved = true;
        } else diagnostics.push(diag(path, `${written}: ${content.message}`));
        continue;
      }
      secret = true;
      ctx.redactor.add(content);
      out += content;
    }
    if (diagnostics.length > failuresBefore || unresolved) {
      // Half-resolved text would be judged by the schema as if it were the value: keep it out of the way.
      if (diagnostics.length === failuresBefore && deferrable) deferredPaths.push(path);
      else failedPaths.push(path);
      return s;
    }
    if (secret) {
      secretPaths.push(path);
      ctx.redactor.add(out);
    }
    return out;
  };

  const diag = (path: DocPath, message: string): Diagnostic => ({ severity: 'error', pos: ctx.posOf(path), subject: ctx.subject, message });
  const warn = (path: DocPath, message: string): Diagnostic => ({ ...diag(path, message), severity: 'warning' });

  // Copy on write: most documents hold no reference at all, and copying every rule of a large
  // repository costs more than reading it. Only the containers on the way to a changed string are
  // copied (each once), the rest is shared with the input.
  let value = root;
  const copies = new WeakSet<object>();
  const own = (container: any): any => {
    if (copies.has(container)) return container;
    const copy = Array.isArray(container) ? container.slice() : { ...container };
    copies.add(copy);
    return copy;
  };
  for (const { path, text } of templated) {
    const replaced = visitString(text, path);
    if (replaced === text) continue;
    if (path.length === 0) {
      value = replaced;
      continue;
    }
    value = own(value);
    let node: any = value;
    for (const step of path.slice(0, -1)) node = node[step] = own(node[step]);
    node[path[path.length - 1]] = replaced;
  }
  return { value, secretPaths, failedPaths, deferredPaths, diagnostics };
}

/**
 * The spec of a resource with its deferred write-only strings (Resource.deferred) resolved from
 * `env` and the secret files as they are now, for the apply that writes it. Every reference still
 * missing is an error at its string's position, naming the field and the variable or file.
 */
export function resolveDeferred(res: Resource, env: NodeJS.ProcessEnv, redactor: Redactor, subject?: string): { spec: Record<string, any>; diagnostics: Diagnostic[] } {
  const ctx: InterpolationContext = { env, dir: res.dir, root: res.root, redactor, posOf: res.posOf, subject };
  let root: unknown = { spec: res.spec };
  const diagnostics: Diagnostic[] = [];
  for (const { path, text } of res.deferred ?? []) {
    const result = interpolate(root, ctx, [{ path, text }]);
    root = result.value;
    for (const d of result.diagnostics) diagnostics.push({ ...d, message: `${displayField(path)}: ${d.message}` });
  }
  return { spec: (root as { spec: Record<string, any> }).spec, diagnostics };
}
