import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

// The ceiling on this machine: a bare Fastify route answering a small JSON object, and, when
// BODY_FILE is given, one answering that same (large) object on every request.
const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
if (process.env.BODY_FILE) {
  const body = JSON.parse(readFileSync(process.env.BODY_FILE, 'utf8')) as unknown;
  app.get('/body', async () => body);
}
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(address + '\n');
