import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { createServices } from '../wiring.ts';
import { parse } from './cli.ts';
import { prepareFirstStart } from './first-start.ts';

/** Starts the server and stops it cleanly on SIGTERM/SIGINT (in-flight requests finish). */
export async function serveCommand(args: string[], config: Config): Promise<void> {
  parse(args, {});
  const services = await createServices(config);
  const app = await buildApp(services, {
    logger: {
      level: config.logLevel,
      stream: process.stderr,
      redact: { paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    },
  });
  // Handlers go in before anything is announced, so a signal sent on seeing the banner is caught.
  const stopped = new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  const demo = config.demo ? await prepareFirstStart(services, app.log) : null;
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

  app.log.info({ signal: await stopped }, 'shutting down');
  await app.close();
  await services.close();
}
