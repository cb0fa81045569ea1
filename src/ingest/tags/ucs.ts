import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Category } from '../../catalog/sound.ts';
import type { FoundFields } from './fields.ts';
import { cleanText, FIELD_LIMITS } from './text.ts';

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

/**
 * A file name that follows the UCS convention, `CatID[-UserCategory]_[VendorCategory-]FXName_
 * CreatorID_SourceID[_UserData]`: blocks split by underscores, the first a CatID from the list.
 * Gives the category, the UCS category and subcategory (and a vendor category) as tags, and the
 * FXName as a name. Null when the first block is not a known CatID.
 */
export function ucsFromFileName(filePath: string): FoundFields | null {
  const blocks = path.basename(filePath, path.extname(filePath)).split('_');
  if (blocks.length < 2) return null;
  const entry = ucsEntry(blocks[0]!.split('-')[0]!);
  if (!entry) return null;
  const fxBlock = blocks[1]!;
  const hyphen = fxBlock.indexOf('-');
  const vendorCategory = hyphen >= 0 ? cleanText(fxBlock.slice(0, hyphen), FIELD_LIMITS.tag)?.toLowerCase() : undefined;
  const name = cleanText(hyphen >= 0 ? fxBlock.slice(hyphen + 1) : fxBlock, FIELD_LIMITS.name);
  const tags = [...new Set([...ucsTags(entry.category, entry.subCategory), ...(vendorCategory ? [vendorCategory] : [])])];
  return { ...(name && { name }), tags, category: catalogCategoryForUcs(entry.category) };
}
