import { readFileSync } from 'node:fs';
import type { Category } from '../../catalog/sound.ts';

/**
 * The Universal Category System: every CatID with its Category and SubCategory (UCS 8.2.1, 753
 * CatIDs), shipped as data in ucs-catids.csv beside this module.
 */
export interface UcsEntry {
  catId: string;
  category: string;
  subCategory: string;
}

let table: { byCatId: Map<string, UcsEntry>; categories: Set<string> } | null = null;

function load(): NonNullable<typeof table> {
  if (table) return table;
  const text = readFileSync(new URL('./ucs-catids.csv', import.meta.url), 'utf8');
  const [header, ...rows] = text.trim().split(/\r?\n/);
  if (header !== 'CatID,Category,SubCategory') throw new Error('ucs-catids.csv: unexpected header');
  const byCatId = new Map<string, UcsEntry>();
  for (const row of rows) {
    const [catId, category, subCategory, extra] = row.split(',');
    if (!catId || !category || !subCategory || extra !== undefined) throw new Error(`ucs-catids.csv: bad row "${row}"`);
    byCatId.set(catId, { catId, category, subCategory });
  }
  table = { byCatId, categories: new Set([...byCatId.values()].map((entry) => entry.category)) };
  return table;
}

/** The entry for a CatID, matched exactly: the convention asks that its case be kept. */
export function ucsEntry(catId: string): UcsEntry | undefined {
  return load().byCatId.get(catId);
}

/** The UCS category a name refers to ("doors" → "DOORS"), if it is one. */
export function ucsCategoryNamed(name: string): string | undefined {
  const upper = name.trim().toUpperCase();
  return load().categories.has(upper) ? upper : undefined;
}

export function ucsCatIdCount(): number {
  return load().byCatId.size;
}

/** UCS categories onto the catalog's: ambiences are AMBIENT, musical ones MUSIC, the rest SFX (UCS has no lo-fi). */
export function catalogCategoryForUcs(category: string): Category {
  if (category === 'AMBIENCE') return 'AMBIENT';
  if (category === 'MUSICAL') return 'MUSIC';
  return 'SFX';
}

/** The UCS category and subcategory, kept as tags so a catalog search finds them. */
export function ucsTags(category: string, subCategory: string | undefined): string[] {
  return [category, ...(subCategory ? [subCategory] : [])].map((tag) => tag.toLowerCase());
}
