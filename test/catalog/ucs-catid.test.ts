import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ucsCatIdOf } from '../../src/catalog/ucs-catid.ts';

test('ucs-catid: a CatID tag, then a category and subcategory, then a category, then the catalog category', () => {
  // 1. A tag that is a CatID, in any case, spelled back as UCS spells it.
  assert.equal(ucsCatIdOf({ tags: ['creaky', 'doorwood'], category: 'AMBIENT' }), 'DOORWood');
  // 2. A category and one of its subcategories, as ingest keeps them (lower-case), spaces included.
  assert.equal(ucsCatIdOf({ tags: ['ambience', 'room tone'], category: 'SFX' }), 'AMBRoom');
  assert.equal(ucsCatIdOf({ tags: ['wood', 'doors'], category: null }), 'DOORWood');
  // 3. A category alone: its MISC CatID.
  assert.equal(ucsCatIdOf({ tags: ['doors', 'slam'], category: 'SFX' }), 'DOORMisc');
  // 4. Nothing of UCS in the tags: the catalog's category.
  assert.equal(ucsCatIdOf({ tags: ['piano'], category: 'MUSIC' }), 'MUSCMisc');
  assert.equal(ucsCatIdOf({ tags: [], category: 'LOFI' }), 'MUSCMisc');
  assert.equal(ucsCatIdOf({ tags: [], category: 'AMBIENT' }), 'AMBMisc');
  assert.equal(ucsCatIdOf({ tags: ['laser'], category: 'SFX' }), 'DSGNMisc');
  assert.equal(ucsCatIdOf({ tags: [], category: null }), 'DSGNMisc');
});
