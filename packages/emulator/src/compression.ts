import { promisify } from 'node:util';
import { deflate, gzip } from 'node:zlib';

/**
 * Response compression as the real server negotiates it. Its HTTP server compresses by default
 * (`server.compression.enabled`, default true, in its HTTP config schema), through its framework's
 * content-encoding negotiation: gzip or deflate, chosen by the client's Accept-Encoding q-values
 * (gzip first on a tie), for compressible payloads (JSON and text, not binary downloads) of 1,024
 * bytes or more (the framework's default `compression.minBytes`). A compressed answer carries
 * `content-encoding` and `vary: accept-encoding`, and no content-length (it is streamed).
 */
export const MIN_COMPRESSED_BYTES = 1024;

export type ContentEncoding = 'gzip' | 'deflate';

/** The encoding a request's Accept-Encoding header asks for, or undefined (identity). */
export function negotiatedEncoding(header: string | string[] | undefined): ContentEncoding | undefined {
  if (header === undefined) return undefined;
  const q = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const weight = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find((m) => m);
    const value = weight ? Number(weight[1]) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weightOf = (name: ContentEncoding) => q.get(name) ?? (name === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0;
  const gzipQ = weightOf('gzip');
  const deflateQ = weightOf('deflate');
  if (gzipQ <= 0 && deflateQ <= 0) return undefined;
  return gzipQ >= deflateQ ? 'gzip' : 'deflate';
}

/** Whether an answer of `contentType` and `length` bytes is compressed when the client asks. */
export function compressible(contentType: string, length: number): boolean {
  return length >= MIN_COMPRESSED_BYTES && /^\s*(application\/([\w.-]+\+)?(json|x-ndjson)|text\/)/i.test(contentType);
}

const compressors = { gzip: promisify(gzip), deflate: promisify(deflate) };

/** `bytes` in `encoding`, compressed off the event loop (zlib's thread pool), as a streamed answer is. */
export function compress(bytes: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  return compressors[encoding](bytes);
}
