import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

// The ceiling on this machine: a bare Fastify route answering a small JSON object, and, when
// BODY_FILE is given, routes answering that same (large) object, and its text, on every request;
// with BUSY_US, /busy answers after that many microseconds of work, the same for every request
// (bench/queueing.ts).
const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
const busyUs = Number(process.env.BUSY_US ?? 0);
if (busyUs > 0) {
  app.get('/busy', async () => {
    const start = performance.now();
    while ((performance.now() - start) * 1000 < busyUs);
    return { hello: 'world' };
  });
}
if (process.env.BODY_FILE) {
  const text = readFileSync(process.env.BODY_FILE, 'utf8');
  const body = JSON.parse(text) as unknown;
  app.get('/body', async () => body);
  // The same answer already serialized: what sending it costs with no JSON work at all, as text
  // and as bytes (how the server keeps the answers it renders).
  app.get('/body-text', async (_request, reply) => reply.type('application/json; charset=utf-8').send(text));
  const bytes = Buffer.from(text);
  app.get('/body-bytes', async (_request, reply) => reply.type('application/json; charset=utf-8').send(bytes));
}
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`${address}\n`);
