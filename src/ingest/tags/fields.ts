import path from 'node:path';
import type { Category } from '../../catalog/sound.ts';
import { CATEGORIES } from '../../catalog/sound.ts';
import { cleanText, FIELD_LIMITS } from './text.ts';
import { catalogCategoryForUcs, ucsCategoryNamed, ucsEntry, ucsTags } from './ucs.ts';

export { cleanText, FIELD_LIMITS };

/** Where a field of a sound's metadata came from, as `ingest --verbose` shows it. */
export type MetadataSource =
  | 'sidecar'
  | 'smpl'
  | 'id3'
  | 'vorbis'
  | 'bext'
  | 'info'
  | 'ixml'
  | 'aiff'
  | 'ucs'
  | 'file name'
  | 'default';

/** What one source says about a sound; a field it does not give is absent. */
export interface FoundFields {
  name?: string;
  description?: string;
  tags?: string[];
  category?: Category;
}

export interface SourcedFields {
  source: MetadataSource;
  fields: FoundFields;
}

/** The text fields a tag format holds, before they are mapped onto the catalog's metadata. */
export interface RawTags {
  title?: string;
  description?: string;
  /** Keyword lists as written (comma, semicolon or line separated). */
  keywords?: string[];
  /** Genres as written, one or several. */
  genres?: string[];
  /** UCS fields some libraries write beside the file name (Soundminer, BaseHead...). */
  catId?: string;
  ucsCategory?: string;
  ucsSubCategory?: string;
}

/** "glass, break; Impact" → ["glass", "break", "impact"]: lowercase, deduplicated, bounded. */
export function splitKeywords(lists: readonly string[]): string[] {
  const tags = new Set<string>();
  for (const list of lists) {
    for (const part of list.split(/[,;\r\n]+/)) {
      const tag = cleanText(part, FIELD_LIMITS.tag)?.toLowerCase();
      if (tag) tags.add(tag);
    }
  }
  return [...tags].slice(0, FIELD_LIMITS.tags);
}

/**
 * Maps one source's raw fields onto the catalog's: title → name, description, keywords and genre
 * → tags, and a category from a UCS CatID or category name, else from the first genre that names one.
 */
export function toFields(raw: RawTags): FoundFields {
  const fields: FoundFields = {};
  const name = cleanText(raw.title, FIELD_LIMITS.name);
  if (name) fields.name = name;
  const description = cleanText(raw.description, FIELD_LIMITS.description);
  if (description) fields.description = description;
  const genres = (raw.genres ?? []).map(cleanGenre).filter((genre): genre is string => genre !== undefined);
  const entry = raw.catId ? ucsEntry(raw.catId.trim()) : undefined;
  const ucsCategory =
    entry?.category ??
    (raw.ucsCategory ? ucsCategoryNamed(raw.ucsCategory) : undefined) ??
    genres.map(ucsCategoryNamed).find(Boolean);
  const ucsSubCategory =
    entry?.subCategory ?? (ucsCategory ? cleanText(raw.ucsSubCategory, FIELD_LIMITS.tag) : undefined);
  const tags = splitKeywords([
    ...(raw.keywords ?? []),
    ...genres,
    ...(ucsCategory ? ucsTags(ucsCategory, ucsSubCategory) : []),
  ]);
  if (tags.length > 0) fields.tags = tags;
  const category = ucsCategory ? catalogCategoryForUcs(ucsCategory) : genres.map(categoryFromGenre).find(Boolean);
  if (category) fields.category = category;
  return fields;
}

/** ID3 genres may be "(17)", "(17)Rock" or "17" (ID3v1 numbers); only a name is useful here. */
function cleanGenre(value: string | undefined): string | undefined {
  const genre = cleanText(value?.replace(/^(\((\d+|RX|CR)\))+/, ''), FIELD_LIMITS.tag);
  return genre && !/^\d+$/.test(genre) ? genre : undefined;
}

const GENRE_CATEGORIES: Record<string, Category> = {
  sfx: 'SFX',
  soundeffect: 'SFX',
  soundeffects: 'SFX',
  soundclip: 'SFX',
  foley: 'SFX',
  music: 'MUSIC',
  ambient: 'AMBIENT',
  ambience: 'AMBIENT',
  ambiance: 'AMBIENT',
  atmosphere: 'AMBIENT',
  soundscape: 'AMBIENT',
  lofi: 'LOFI',
  lofihiphop: 'LOFI',
  chillhop: 'LOFI',
};

/** A genre that names one of the catalog's categories (or a common synonym); other genres are only tags. */
export function categoryFromGenre(genre: string | undefined): Category | undefined {
  if (!genre) return undefined;
  const key = genre.toLowerCase().replace(/[^a-z]/g, '');
  const upper = genre.trim().toUpperCase();
  if ((CATEGORIES as readonly string[]).includes(upper)) return upper as Category;
  return GENRE_CATEGORIES[key];
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
  const vendorTags = vendorCategory ? [vendorCategory] : [];
  const tags = [...new Set([...ucsTags(entry.category, entry.subCategory), ...vendorTags])];
  return { ...(name && { name }), tags, category: catalogCategoryForUcs(entry.category) };
}
