import Fastify from 'fastify';

// The ceiling on this machine: a bare Fastify route answering a small JSON object.
const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(address + '\n');
