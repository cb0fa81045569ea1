import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Services } from '../../src/services.ts';
import { createServices } from '../../src/wiring.ts';
import { backendEnv, prepareBackend, removeBackend } from '../helpers/backend.ts';

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
 * Like startServer (test/helpers/server.ts), with what it leaves out: the app's limits (short
 * timeouts for the slow-client tests) and its log lines, kept in memory.
 */
export async function startAppServer(options: { env?: Record<string, string>; limits?: AppOptions['limits'] } = {}): Promise<AppServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-hardening-'));
  await prepareBackend(dataDir);
  const config = loadConfig({ SOUND_CATALOG_DATA: dataDir, PORT: '0', SOUND_CATALOG_DEMO: '0', ...backendEnv(dataDir), ...options.env });
  const services = await createServices(config);
  const lines: Array<Record<string, unknown>> = [];
  const stream = { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) };
  const app = await buildApp(services, { logger: { level: 'info', stream }, limits: options.limits });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  services.listeningAt(url);
  return {
    url,
    port: Number(new URL(url).port),
    app,
    services,
    logLines: () => lines,
    async proKey() {
      const account = await services.accounts.createAccount(`pro-${randomBytes(4).toString('hex')}@example.com`, 'pro');
      return (await services.accounts.createKey(account.id, 'test')).key;
    },
    async close() {
      await app.close();
      await services.close();
      await rm(dataDir, { recursive: true, force: true });
      await removeBackend(dataDir);
    },
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
  socket.on('data', (chunk: string) => { received += chunk; });
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
