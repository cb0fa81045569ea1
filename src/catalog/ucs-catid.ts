import { readFileSync } from 'node:fs';
import type { Category, Sound } from './sound.ts';

/**
 * The UCS CatID of a catalog sound, for the names and tags of the files it is delivered as (packs,
 * media). The catalog stores no CatID; ingest keeps what a file's UCS name or iXML said as tags
 * (the CatID's category and subcategory, lower-case, ingest/tags/ucs.ts), so it is read back
 * from them. Here, in the domain's model of a sound, so that packs and media both reach it.
 */

/** The CatID of each catalog category when the tags name none: its UCS category's catch-all. */
export const UCS_FALLBACK_CATIDS: Record<Category, string> = {
  AMBIENT: 'AMBMisc',
  MUSIC: 'MUSCMisc',
  LOFI: 'MUSCMisc',
  // The catalog's effects are designed (synthesized) sounds, most of them; DESIGNED MISC says so.
  SFX: 'DSGNMisc',
};

interface UcsTable {
  /** Upper-cased CatID → the CatID as UCS spells it. */
  byUpperCatId: Map<string, string>;
  /** Category → subcategory → CatID, both upper-case as UCS writes them. */
  byCategory: Map<string, Map<string, string>>;
}

let table: UcsTable | null = null;

/** The table of ingest/tags/ucs-catids.csv (UCS 8.2.1), read once: the one copy of the UCS data. */
function load(): UcsTable {
  if (table) return table;
  const text = readFileSync(new URL('../ingest/tags/ucs-catids.csv', import.meta.url), 'utf8');
  const byUpperCatId = new Map<string, string>();
  const byCategory = new Map<string, Map<string, string>>();
  for (const row of text.trim().split(/\r?\n/).slice(1)) {
    const [catId, category, subCategory] = row.split(',') as [string, string, string];
    byUpperCatId.set(catId.toUpperCase(), catId);
    let subs = byCategory.get(category);
    if (!subs) byCategory.set(category, (subs = new Map()));
    subs.set(subCategory, catId);
  }
  table = { byUpperCatId, byCategory };
  return table;
}

/**
 * The sound's CatID, by the first rule that finds one:
 * 1. a tag that is a CatID, in any case ("doorwood" → DOORWood);
 * 2. a tag naming a UCS category and another naming one of its subcategories, as ingest keeps
 *    them ("doors", "wood" → DOORWood; tags in their order, the first category that has a match);
 * 3. a tag naming a UCS category alone → that category's MISC CatID, where it has one;
 * 4. the catalog's category: AMBIENT → AMBMisc, MUSIC and LOFI → MUSCMisc, SFX (and none) →
 *    DSGNMisc (UCS_FALLBACK_CATIDS).
 * Always a CatID of the table, in UCS's own spelling.
 */
export function ucsCatIdOf(sound: Pick<Sound, 'tags' | 'category'>): string {
  return knownUcsCatIdOf(sound) ?? UCS_FALLBACK_CATIDS[sound.category ?? 'SFX'];
}

/** The CatID the sound's tags name (rules 1 to 3 of ucsCatIdOf), or null: what a file's iXML states. */
export function knownUcsCatIdOf(sound: Pick<Sound, 'tags'>): string | null {
  const { byUpperCatId, byCategory } = load();
  const tags = sound.tags.map((tag) => tag.trim().toUpperCase());
  for (const tag of tags) {
    const catId = byUpperCatId.get(tag);
    if (catId) return catId;
  }
  const categories = tags.filter((tag) => byCategory.has(tag));
  for (const category of categories) {
    const subs = byCategory.get(category)!;
    const sub = tags.find((tag) => tag !== category && subs.has(tag));
    if (sub) return subs.get(sub)!;
  }
  for (const category of categories) {
    const misc = byCategory.get(category)!.get('MISC');
    if (misc) return misc;
  }
  return null;
}
