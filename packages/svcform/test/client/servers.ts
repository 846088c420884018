import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as they arrived. */
  url: string;
  headers: IncomingHttpHeaders;
  /** Header names and values in the order sent, repeats kept. */
  rawHeaders: string[];
  body: Buffer;
}

export type Responder = (req: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  /** The most requests this server was handling at the same moment. */
  maxInFlight: number;
  close(): Promise<void>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * A tiny HTTP server for what the emulator cannot show: the exact bytes the client sends, a base
 * path in front of /api, and how many requests are in flight at once. Answers 200 {"ok":true}
 * unless a responder says otherwise.
 */
export async function recordingServer(respond?: Responder): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const server: Server = createServer((req, res) => {
    inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    res.on('close', () => {
      inFlight -= 1;
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) };
      requests.push(recorded);
      if (!respond) return sendJson(res, 200, { ok: true });
      Promise.resolve(respond(recorded, res, req)).catch((err) => {
        if (!res.headersSent) sendJson(res, 500, { message: String(err) });
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
