import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DemoNames } from '../../src/ingest/demo-names.ts';
import { startServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

test('demo-names: a title is numbered only when the catalog already holds it, and concurrent claims never share a name', async () => {
  const server = await startServer();
  try {
    await addSound(server.services, { name: 'Laser Zap High' });
    await addSound(server.services, { name: 'Laser Zap Higher' });
    await addSound(server.services, { name: 'Chill Loop - 80 BPM in D minor' });
    const names = new DemoNames(server.services.catalogWriter);
    assert.equal(await names.claim({ title: 'Door Slam' }), 'Door Slam');
    const zaps = await Promise.all(Array.from({ length: 3 }, () => names.claim({ title: 'Laser Zap High' })));
    assert.deepEqual(zaps, ['Laser Zap High 2', 'Laser Zap High 3', 'Laser Zap High 4']);
    assert.equal(await names.claim({ title: 'Chill Loop', subtitle: '80 BPM in D minor' }), 'Chill Loop 2 - 80 BPM in D minor');
    assert.equal(await names.claim({ title: 'Chill Loop', subtitle: '92 BPM in A major' }), 'Chill Loop - 92 BPM in A major');
    // A name holding LIKE's wildcards is matched as written.
    assert.equal(await names.claim({ title: 'Laser%' }), 'Laser%');
  } finally {
    await server.close();
  }
});
