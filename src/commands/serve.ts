import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { backgroundLogStream } from '../logging.ts';
import { logRedaction } from '../log-redaction.ts';
import { Metrics } from '../metrics/index.ts';
import { listenForScrapes } from '../metrics/server.ts';
import { createServices } from '../wiring.ts';
import { parse } from './cli.ts';
import { prepareFirstStart } from './first-start.ts';

/** Starts the server and stops it cleanly on SIGTERM/SIGINT (in-flight requests finish). */
export async function serveCommand(args: string[], config: Config): Promise<void> {
  parse(args, {});
  let log: { error(object: object, message: string): void } | undefined;
  const services = await createServices(config, {
    onError: (error) => log?.error({ err: error }, 'following catalog changes failed'),
  });
  // With METRICS_PORT the app times its answers and the quota counts its decisions; off, neither is there.
  const metrics = config.metrics ? new Metrics(services) : undefined;
  const app = await buildApp(metrics ? metrics.observing(services) : services, {
    logger: {
      level: config.logLevel,
      stream: backgroundLogStream(),
      ...logRedaction,
    },
    metrics,
  });
  log = app.log;
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
  // The search index is built before the first request, not by it.
  const built = await services.catalog.start();
  services.database.checkpointInBackground((reason) =>
    app.log.warn({ reason }, 'SQLite checkpoints are back on the event loop: the checkpointer thread failed'),
  );
  app.log.info(built, 'search index built');
  if (built.described < built.sounds) {
    app.log.warn(
      { undescribed: built.sounds - built.described },
      'some sounds have no audio descriptors (stored before they were measured, or by a version that measured ' +
        'others) and are left out of similar sounds: run `sound-catalog analyze --missing`',
    );
  }
  const address = await app.listen({ port: config.port, host: config.host });
  services.listeningAt(address);
  const scrapes =
    metrics && config.metrics ? await listenForScrapes(metrics, config.metrics.port, config.metrics.host) : null;
  if (scrapes) app.log.info({ address: scrapes.address }, 'metrics listening');
  const base = services.baseUrl();
  // TRUST_PROXY decides which address sign-in throttling counts: the operator can check it here.
  app.log.info({ address, trustProxy: config.trustProxy, maxConnections: config.maxConnections }, 'listening');
  process.stderr.write(
    `\nSound Catalog is listening on ${address}\n` +
      `  API reference   ${base}/docs\n` +
      `  Dashboard       ${base}/dashboard\n` +
      `  MCP server      ${base}/mcp\n` +
      (scrapes ? `  Metrics         ${scrapes.address}/metrics\n` : '') +
      (demo ? demo.banner(base) : ''),
  );

  // The rest of a first start's demo catalog, made while the server answers.
  const finishing = demo
    ?.finish(stopping.signal)
    .catch((error) => app.log.error({ err: error }, 'demo catalog failed'));
  app.log.info({ signal: await stopped }, 'shutting down');
  await finishing;
  await scrapes?.close();
  await app.close();
  await services.close();
}
