/**
 * What 50 connections do to p99 by themselves:
 *   node --import tsx bench/queueing.ts [BUSY_US] [SECONDS]      (default 300 us, 6 s)
 * A bare Fastify route that answers after the same work every time (bench/hello-world.ts,
 * BUSY_US), driven by autocannon as bench/api.ts drives the server, at 20 and 50 connections.
 * Its requests all cost the same, so what spreads their latency is queueing and the machine
 * (the client on the other core, other tenants), not the requests: the p99 the API's table can
 * be read against. Prints req/s, mean, p50, p90, p99 and Little's law's mean (connections / req/s).
 */
import path from 'node:path';
import autocannon from 'autocannon';
import { startChild } from './server-process.ts';

const busyUs = Number(process.argv[2] ?? 300);
const seconds = Number(process.argv[3] ?? 6);
const root = path.resolve(import.meta.dirname, '..');
const server = await startChild(['--import', 'tsx', path.join(root, 'bench/hello-world.ts')], {
  BUSY_US: String(busyUs),
});
const url = `${server.url}/busy`;
await autocannon({ url, connections: 50, duration: 2 });
for (const connections of [20, 50]) {
  const result = await autocannon({ url, connections, duration: seconds });
  const { latency, requests } = result;
  console.log(
    JSON.stringify({
      busyUs,
      connections,
      rps: Math.round(requests.average),
      mean: latency.average,
      p50: latency.p50,
      p90: latency.p90,
      p99: latency.p99,
      littleMean: Math.round((10 * 1000 * connections) / requests.average) / 10,
    }),
  );
}
server.child.kill();
