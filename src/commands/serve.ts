import v8 from 'node:v8';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { backgroundLogStream } from '../logging.ts';
import { createServices } from '../wiring.ts';
import { parse } from './cli.ts';
import { prepareFirstStart } from './first-start.ts';

/** Starts the server and stops it cleanly on SIGTERM/SIGINT (in-flight requests finish). */
export async function serveCommand(args: string[], config: Config): Promise<void> {
  parse(args, {});
  // V8 lets the heap grow by up to 4x between full collections; under load that is garbage held
  // as resident memory. A fixed 20% kept the server at 145-170 MB instead of 220-310 MB at the
  // same request rate (bench/, searches that miss the cache). V8 reads it at every collection,
  // so setting it here works however node was started (it is not allowed in NODE_OPTIONS).
  v8.setFlagsFromString('--heap-growing-percent=20');
  // `npm start` pins this thread's young generation at 8 MB a half. V8 applies those flags to
  // every thread made later too: the reader thread held 16 MB of young generation with under 1 MB
  // in use. This thread's heap is made by now, so they are unset and later threads size their own
  // (peak resident memory 12-14 MB lower under searches that miss the cache, same rate; bench/).
  v8.setFlagsFromString('--min-semi-space-size=0');
  v8.setFlagsFromString('--max-semi-space-size=0');
  const services = await createServices(config);
  const app = await buildApp(services, {
    logger: {
      level: config.logLevel,
      stream: backgroundLogStream(),
      redact: { paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    },
  });
  // Handlers go in before anything is announced, so a signal sent on seeing the banner is caught.
  const stopping = new AbortController();
  const stopped = new Promise<string>((resolve) => {
    const stop = (signal: string) => {
      stopping.abort();
      resolve(signal);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  const demo = config.demo ? await prepareFirstStart(services, app.log, stopping.signal) : null;
  if (stopping.signal.aborted) {
    // Stopped while the demo catalog was being made: what was made is kept; the next start goes on.
    await app.close();
    await services.close();
    return;
  }
  const address = await app.listen({ port: config.port, host: config.host });
  services.listeningAt(address);
  const base = services.baseUrl();
  app.log.info({ address }, 'listening');
  process.stderr.write(
    `\nSound Catalog is listening on ${address}\n`
    + `  API reference   ${base}/docs\n`
    + `  Dashboard       ${base}/dashboard\n`
    + `  MCP server      ${base}/mcp\n`
    + (demo ? demo.banner(base) : ''),
  );

  // The rest of a first start's demo catalog, made while the server answers.
  const finishing = demo?.finish(stopping.signal).catch((error) => app.log.error({ err: error }, 'demo catalog failed'));
  app.log.info({ signal: await stopped }, 'shutting down');
  await finishing;
  await app.close();
  await services.close();
}
