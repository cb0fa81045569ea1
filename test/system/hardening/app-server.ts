import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { AppOptions } from '../../../src/app.ts';
import type { Services } from '../../../src/services.ts';
import { startServer } from '../../helpers/server.ts';

export interface AppServer {
  url: string;
  port: number;
  app: FastifyInstance;
  services: Services;
  /** The JSON lines logged so far (info and up). */
  logLines(): Array<Record<string, unknown>>;
  /** A Pro account's key. */
  proKey(): Promise<string>;
  close(): Promise<void>;
}

/**
 * startServer (test/helpers/server.ts) with the app's limits (short timeouts for the slow-client
 * tests) and its log lines, kept in memory.
 */
export async function startAppServer(
  options: { env?: Record<string, string>; limits?: AppOptions['limits'] } = {},
): Promise<AppServer> {
  const lines: Array<Record<string, unknown>> = [];
  const stream = { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) };
  const server = await startServer({
    env: options.env,
    app: { logger: { level: 'info', stream }, limits: options.limits },
  });
  const { url, app, services } = server;
  return {
    url,
    port: Number(new URL(url).port),
    app,
    services,
    logLines: () => lines,
    async proKey() {
      return (await server.account('pro')).key;
    },
    close: () => server.close(),
  };
}

/** A raw TCP connection and everything it has received, for requests fetch would not send. */
export interface RawConnection {
  socket: net.Socket;
  received(): string;
  /** Resolves when the server closes the connection (or it fails), with the milliseconds it was open. */
  closed: Promise<number>;
}

export async function connect(port: number): Promise<RawConnection> {
  const socket = net.connect(port, '127.0.0.1');
  const opened = Date.now();
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  const closed = new Promise<number>((resolve) => {
    socket.on('close', () => resolve(Date.now() - opened));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => received, closed };
}

/** Sends one request on a new connection and returns the whole answer once the server closes it. */
export async function rawRequest(port: number, request: string): Promise<string> {
  const connection = await connect(port);
  connection.socket.write(request);
  await connection.closed;
  return connection.received();
}

/** The status of a raw HTTP answer (0 when there was none). */
export function statusOf(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
}

/** The body of a raw HTTP answer sent with Content-Length. */
export function bodyOf(answer: string): string {
  return answer.slice(answer.indexOf('\r\n\r\n') + 4);
}
