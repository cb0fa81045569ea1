import { test } from 'node:test';
import { performance } from 'node:perf_hooks';
import { startServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';
import { postMcp } from './mcp-client.ts';
test('measure', async () => {
  const server = await startServer();
  const { key } = await server.account('enterprise');
  let id = '';
  for (let i = 0; i < 200; i++) id = (await addSound(server.services, { name: `Laser ${i}`, tags: ['laser'], duration: 0.1 + i / 100 })).id;
  const time = async (label: string, n: number, fn: () => Promise<unknown>) => {
    for (let i = 0; i < 20; i++) await fn();
    const t = performance.now();
    for (let i = 0; i < n; i++) await fn();
    console.log(`${label}: ${((performance.now() - t) / n).toFixed(2)} ms`);
  };
  const h = { 'x-api-key': key };
  await time('REST GET /sounds/:id', 300, async () => (await server.get(`/api/v1/sounds/${id}`, { key })).text());
  await time('raw MCP get_sound', 300, async () => (await postMcp(server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_sound', arguments: { id } } }, h)).text());
  await time('REST search', 300, async () => (await server.get(`/api/v1/sounds?q=laser&max_duration=1`, { key })).text());
  await time('raw MCP search', 300, async () => (await postMcp(server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_sounds', arguments: { q: 'laser', max_duration: 1 } } }, h)).text());
  await time('raw MCP tools/list', 100, async () => (await postMcp(server, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, h)).text());
  await server.close();
});
