import { pipeline, type Readable } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import { UNREADABLE_ENCODING } from './retry.js';

/**
 * Compressed answers. The real server compresses JSON and text answers of 1 KB or more when the
 * request asks (its HTTP server's `server.compression.enabled` defaults to true), and the rule
 * listing dominates a plan's transfer: the 2,068 real rules are 16.3 MB of JSON that gzip makes
 * 3.9 MB. Over a network that is the difference that matters; over this machine's loopback the
 * server's compressing and our inflating are only CPU on both sides, so a server on a loopback
 * address is not asked (the embedded emulator, a local container). `ClientOptions.compressed`
 * decides otherwise.
 */
export const ACCEPTED_ENCODING = 'gzip';

/** Whether a host name is this machine's loopback: `localhost` (and names under it), 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || /^(0{0,4}:){7}0{0,3}1$/.test(host)) return true;
  // IPv4 in IPv6: URL writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
  return /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

/** The chunks of an answer's body as sent before its content encoding, or an Error naming an encoding we cannot read. */
export function decodedBody(body: Readable, contentEncoding: string | string[] | undefined): AsyncIterable<Buffer> | Error {
  const encoding = (Array.isArray(contentEncoding) ? contentEncoding.join(',') : contentEncoding ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return body;
  // pipeline, not pipe: an aborted or broken body ends the inflating stream with its error.
  const through = (inflate: Readable & NodeJS.WritableStream) => pipeline(body, inflate, () => {});
  if (encoding === 'gzip' || encoding === 'x-gzip') return through(createGunzip());
  if (encoding === 'deflate') return through(createInflate());
  return Object.assign(new Error(`the answer came in content encoding "${encoding}", which svcform did not ask for and cannot read`), { code: UNREADABLE_ENCODING });
}
