import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Redactor } from './redact.js';
import type { Diagnostic, DocPath, SourcePos } from './types.js';

export interface InterpolationContext {
  env: NodeJS.ProcessEnv;
  /** Directory of the manifest: base of ${file:...} paths. */
  dir: string;
  redactor: Redactor;
  posOf(path: DocPath): SourcePos;
  subject?: string;
}

export interface InterpolationResult {
  value: unknown;
  /** Paths (from the document root) of strings that now hold secret material. */
  secretPaths: DocPath[];
  /** Paths of strings left as written because a reference in them failed (their errors are in diagnostics). */
  failedPaths: DocPath[];
  diagnostics: Diagnostic[];
}

// `$${` escapes a literal `${`; only the env and file forms are interpolated, so other `${...}`
// text (a query, a template) passes through untouched.
const TOKEN = /\$\$\{|\$\{(env|file):([^}]*)\}/g;

/**
 * Replaces ${env:NAME} and ${file:path} in every string of a document (the input is not modified;
 * unchanged parts are shared with it). A missing variable or an unreadable file is an error at the
 * string's position. File contents lose one trailing newline,
 * as secret files are usually written with one.
 */
export function interpolate(root: unknown, ctx: InterpolationContext): InterpolationResult {
  const secretPaths: DocPath[] = [];
  const failedPaths: DocPath[] = [];
  const diagnostics: Diagnostic[] = [];
  const fileCache = new Map<string, string | Error>();

  const readSecretFile = (rel: string): string | Error => {
    const abs = resolve(ctx.dir, rel);
    if (!fileCache.has(abs)) {
      try {
        fileCache.set(abs, readFileSync(abs, 'utf8').replace(/\r?\n$/, ''));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        const why =
          code === 'ENOENT' ? `file not found: ${rel}` : code === 'EISDIR' ? `${rel} is a directory, not a file` : code === 'EACCES' ? `cannot read ${rel}: permission denied` : `cannot read ${rel}: ${code ?? (err as Error).message}`;
        fileCache.set(abs, new Error(why));
      }
    }
    return fileCache.get(abs)!;
  };

  const visitString = (s: string, path: DocPath): string => {
    if (!s.includes('${')) return s;
    let secret = false;
    const failuresBefore = diagnostics.length;
    const out = s.replace(TOKEN, (match, source: string | undefined, arg: string | undefined) => {
      if (match === '$${') return '${';
      const name = (arg ?? '').trim();
      if (source === 'env') {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
          diagnostics.push(diag(path, `\${env:${name}}: not a valid environment variable name`));
          return match;
        }
        const v = ctx.env[name];
        if (v === undefined) {
          diagnostics.push(diag(path, `environment variable ${name} is not set (referenced as \${env:${name}})`));
          return match;
        }
        secret = true;
        ctx.redactor.add(v);
        return v;
      }
      if (name === '') {
        diagnostics.push(diag(path, '${file:}: a path is required'));
        return match;
      }
      const content = readSecretFile(name);
      if (content instanceof Error) {
        diagnostics.push(diag(path, `\${file:${name}}: ${content.message}`));
        return match;
      }
      secret = true;
      ctx.redactor.add(content);
      return content;
    });
    if (diagnostics.length > failuresBefore) {
      // Half-resolved text would be judged by the schema as if it were the value: keep it out of the way.
      failedPaths.push(path);
      return s;
    }
    if (secret) {
      secretPaths.push(path);
      ctx.redactor.add(out);
    }
    return out;
  };

  const diag = (path: DocPath, message: string): Diagnostic => ({ severity: 'error', pos: ctx.posOf(path), subject: ctx.subject, message });

  // Copy on write: most documents hold no reference at all, and copying every rule of a large
  // repository costs more than reading it. Containers are copied only where a string changed; the
  // path is one stack, copied only when a finding records it.
  const path: DocPath = [];
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') return v.includes('${') ? visitString(v, path.slice()) : v;
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        const x = visit(v[i]);
        path.pop();
        if (x !== v[i]) (out ??= v.slice())[i] = x;
      }
      return out ?? v;
    }
    if (v && typeof v === 'object') {
      let out: Record<string, unknown> | undefined;
      for (const k in v) {
        if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
        const x = (v as Record<string, unknown>)[k];
        path.push(k);
        const y = visit(x);
        path.pop();
        if (y !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = y;
      }
      return out ?? v;
    }
    return v;
  };

  return { value: visit(root), secretPaths, failedPaths, diagnostics };
}
