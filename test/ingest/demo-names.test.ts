import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DemoNames, type NameableSound } from '../../src/ingest/demo-names.ts';
import { startServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

const thud = (key: string, contact: string): NameableSound => ({
  key,
  title: 'Thud',
  details: ['Heavy Dry', '78 Hz Body'],
  refinements: [`${contact} Contact`, '31 ms Contact Burst'],
});

test('demo-names: a name already held takes finer facts, not a number; concurrent claims never share one', async () => {
  const server = await startServer();
  try {
    await addSound(server.services, { name: 'Thud, Heavy Dry, 78 Hz Body' });
    await addSound(server.services, { name: 'Chill Loop, Electric Piano - 80 BPM in D minor' });
    const names = new DemoNames(server.services.catalogWriter);
    const slam = { key: 'demo-a-0', title: 'Door Slam', details: ['Heavy Echoing Slam'], refinements: [] };
    assert.equal(await names.claim(slam), 'Door Slam, Heavy Echoing Slam');
    const alike = [thud('demo-a-1', '640 Hz'), thud('demo-a-2', '910 Hz'), thud('demo-a-3', '640 Hz')];
    const thuds = await Promise.all(alike.map((sound) => names.claim(sound)));
    assert.deepEqual(thuds, [
      'Thud, Heavy Dry, 78 Hz Body, 640 Hz Contact',
      'Thud, Heavy Dry, 78 Hz Body, 910 Hz Contact',
      'Thud, Heavy Dry, 78 Hz Body, 640 Hz Contact, 31 ms Contact Burst',
    ]);
    // Alike in every fact (or named by hand to match): the sound's key tells it apart.
    assert.equal(
      await names.claim(thud('demo-a-4', '640 Hz')),
      'Thud, Heavy Dry, 78 Hz Body, 640 Hz Contact, 31 ms Contact Burst (demo-a-4)',
    );
    const loop = (refinements: string[]): NameableSound => ({
      key: 'demo-a-5',
      title: 'Chill Loop',
      details: ['Electric Piano'],
      refinements,
      subtitle: '80 BPM in D minor',
    });
    assert.equal(await names.claim(loop(['Swung'])), 'Chill Loop, Electric Piano, Swung - 80 BPM in D minor');
    const other = { ...loop([]), subtitle: '92 BPM in A major' };
    assert.equal(await names.claim(other), 'Chill Loop, Electric Piano - 92 BPM in A major');
    // A name holding LIKE's wildcards is matched as written.
    const wildcard = { key: 'demo-a-6', title: 'Laser%', details: ['Zap'], refinements: [] };
    assert.equal(await names.claim(wildcard), 'Laser%, Zap');
  } finally {
    await server.close();
  }
});
