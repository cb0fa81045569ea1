import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_KEYS, RecentOwners } from '../../src/accounts/recent-owners.ts';

/** RecentOwners with a data version and a clock the test moves, counting the reads it makes. */
function owners() {
  const state = { version: 1, now: 0, reads: 0, revoked: new Set<string>() };
  const recent = new RecentOwners<string>(
    () => state.version,
    () => state.now,
  );
  const read = (hash: string) => async () => {
    state.reads++;
    return state.revoked.has(hash) ? null : `owner of ${hash}`;
  };
  const owner = (hash: string) => recent.owner(hash, read(hash));
  return { state, recent, owner, read };
}

test('recent-owners.kept: an owner read is handed out again within the second, unread', async () => {
  const { state, owner } = owners();
  assert.equal(await owner('a'), 'owner of a');
  state.now = 999;
  assert.equal(await owner('a'), 'owner of a');
  assert.equal(state.reads, 1);
  state.now = 1000;
  assert.equal(await owner('a'), 'owner of a');
  assert.equal(state.reads, 2, 'read again once a second old');
});

test('recent-owners.version: a commit elsewhere (the data version moves) lets every owner go', async () => {
  const { state, owner } = owners();
  await owner('a');
  await owner('b');
  state.revoked.add('a');
  state.version = 2;
  assert.equal(await owner('a'), null);
  assert.equal(await owner('b'), 'owner of b');
  assert.equal(state.reads, 4);
});

test('recent-owners.forget: a write of this process lets them go, and one made during a read keeps nothing', async () => {
  const { state, recent, owner, read } = owners();
  await owner('a');
  recent.forget();
  await owner('a');
  assert.equal(state.reads, 2);
  // A write lands while the owner is being read: what was read is handed out, not kept.
  const reading = recent.owner('b', async () => {
    const found = await read('b')();
    recent.forget();
    return found;
  });
  assert.equal(await reading, 'owner of b');
  await owner('b');
  assert.equal(state.reads, 4);
});

test('recent-owners.unknown: a key with no owner is never kept', async () => {
  const { state, owner } = owners();
  state.revoked.add('x');
  assert.equal(await owner('x'), null);
  assert.equal(await owner('x'), null);
  assert.equal(state.reads, 2);
});

test('recent-owners.bound: past MAX_KEYS keys the owners kept are let go', async () => {
  const { state, owner } = owners();
  for (let i = 0; i < MAX_KEYS; i++) await owner(`k${i}`);
  await owner('k0');
  assert.equal(state.reads, MAX_KEYS, 'all kept up to the bound');
  await owner('one more');
  await owner('k0');
  assert.equal(state.reads, MAX_KEYS + 2, 'the one past the bound let the others go');
});
