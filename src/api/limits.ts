import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';

/**
 * How much one client may send and how long it may take: every limit of the HTTP server in one
 * place. Each bounds what a slow or hostile client can hold: memory, a connection, a socket.
 */
export interface ServerLimits {
  /** The request line and the headers together, in bytes: an over-long URL counts too. */
  headerBytes: number;
  /** The largest body read (dashboard forms have their own, smaller cap). */
  bodyBytes: number;
  /** From a connection's first byte (or a keep-alive request's) to the end of its headers. */
  headersTimeoutMs: number;
  /** From a request's first byte to the end of its body. */
  requestTimeoutMs: number;
  /** A socket with nothing read or written for this long is closed (a client that stops reading). */
  idleTimeoutMs: number;
  /** How long a connection may wait, idle, for its next request. */
  keepAliveTimeoutMs: number;
  /** How often Node looks for requests past their headers or request timeout. */
  timeoutCheckMs: number;
  /** On close, how long requests under way may take to finish before their connections are cut. */
  shutdownGraceMs: number;
  /** Open connections at once; the rest are closed as they arrive. MAX_CONNECTIONS (config.ts). */
  maxConnections: number;
}

export const SERVER_LIMITS: Omit<ServerLimits, 'maxConnections'> = {
  // Node's default, fixed here so --max-http-header-size cannot change it unnoticed. Searches
  // with long query strings (10 KB) still fit; anything larger is answered 431 before it is read.
  headerBytes: 16 * 1024,
  // The largest body anything here reads is one MCP JSON-RPC message: a few KiB. Fastify's 1 MiB
  // default would let MAX_CONNECTIONS slow bodies hold a GiB; at 64 KiB they hold 64 MiB.
  bodyBytes: 64 * 1024,
  // Headers come in one packet from any real client; 10 s leaves a very slow link room. This is
  // what ends a slowloris client, which sends a byte now and then to keep the socket from idling.
  headersTimeoutMs: 10_000,
  // A 64 KiB body at a slow mobile link's pace arrives in well under 30 s.
  requestTimeoutMs: 30_000,
  // Longer than the slowest honest answer (a rendition made on first request takes seconds;
  // PostgreSQL queries give up after 10 s), so only a client that stopped reading hits it.
  idleTimeoutMs: 60_000,
  // Fastify's default: longer than a load balancer's usual 60 s idle timeout, so the proxy
  // closes a pooled connection before we do and never sends a request into a closing socket.
  keepAliveTimeoutMs: 72_000,
  // Node's default is 30 s, which would let a slowloris connection live 40 s instead of 10-12;
  // the check walks the open connections, a short loop at our connection cap.
  timeoutCheckMs: 2_000,
  // Node stops enforcing the headers and request timeouts once the server closes, so a slow
  // client would hold a shutdown open for good. 5 s lets honest requests finish and still leaves
  // the quota counts time to be written before `docker stop` (10 s) or systemd gives up.
  shutdownGraceMs: 5_000,
};

/**
 * The Fastify options that apply the limits. `maxRequestsPerSocket` stays unlimited: a long
 * keep-alive connection costs nothing more than a new one, and each request is counted anyway.
 */
export function serverOptionsOf(limits: ServerLimits) {
  return {
    bodyLimit: limits.bodyBytes,
    connectionTimeout: limits.idleTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      maxHeaderSize: limits.headerBytes,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckMs,
    },
    clientErrorHandler: answerClientError,
  };
}

/**
 * Caps the open connections: past the cap Node closes new ones on arrival, so a flood of idle or
 * slow connections cannot exhaust memory or file descriptors, and those already served go on.
 * A dropped connection is logged at most once a minute, with the count since the last line.
 * (A HOST that names several addresses, like `localhost`, gets extra listeners from Fastify that
 * this cap does not reach; the default 127.0.0.1 and 0.0.0.0 have one.)
 */
export function capConnections(app: FastifyInstance, maxConnections: number): void {
  app.server.maxConnections = maxConnections;
  let dropped = 0;
  let lastWarning = 0;
  app.server.on('drop', () => {
    dropped += 1;
    const now = Date.now();
    if (now - lastWarning < 60_000) return;
    app.log.warn({ dropped, maxConnections }, 'connections refused: the server holds MAX_CONNECTIONS open connections');
    lastWarning = now;
    dropped = 0;
  });
}

/**
 * Bounds closing: requests under way get `graceMs` to finish (idle keep-alive connections are
 * closed at once by Fastify), then every connection left is cut.
 */
export function boundShutdown(app: FastifyInstance, graceMs: number): void {
  app.addHook('preClose', (done) => {
    const cut = setTimeout(() => app.server.closeAllConnections(), graceMs).unref();
    app.server.once('close', () => clearTimeout(cut));
    done();
  });
}

/**
 * Answers what Node refuses before Fastify sees a request (headers too large, a request too slow
 * to arrive, bytes that are not HTTP) in the API's error shape, then closes the connection.
 */
function answerClientError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  // The code only: the error also holds the raw bytes received, keys and cookies among them.
  this.log.debug({ code: error.code, status }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ error: STATUS_CODES[status] });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ` +
        `${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
