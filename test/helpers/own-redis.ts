import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/**
 * A Redis server of a test's own, without persistence: the test stops and starts it (started
 * again, it is empty), never the machine's shared one that other tests use.
 */
export class OwnRedis {
  private process: ChildProcess | null = null;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.process = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    for (let tries = 0; !(await canConnect(this.port)); tries++) {
      if (tries > 100) throw new Error('redis-server did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    const stopped = this.process;
    this.process = null;
    if (!stopped || stopped.exitCode !== null) return;
    await new Promise((resolve) => {
      stopped.once('exit', resolve);
      stopped.kill('SIGKILL');
    });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }
}

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether something accepts connections on the port. */
export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
