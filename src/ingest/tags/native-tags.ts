import type { ITag } from 'music-metadata';
import type { RawTags } from './fields.ts';
import { decodeUnlabelled } from './text.ts';

/**
 * music-metadata's native tags of one tag format (its `metadata.native[...]`: ids as the file
 * writes them) onto the fields the catalog reads. docs/operations.md, "Ingest", names the sources.
 */

/** TXXX descriptions libraries store keywords, a description and UCS fields under (matched without case). */
const ID3_USER_FIELDS: Record<
  string,
  'keywords' | 'description' | 'comment' | 'catId' | 'ucsCategory' | 'ucsSubCategory'
> = {
  KEYWORDS: 'keywords',
  KEYWORD: 'keywords',
  TAGS: 'keywords',
  DESCRIPTION: 'description',
  // ffmpeg writes `-metadata comment=...` into an MP3 as TXXX:comment, not as COMM.
  COMMENT: 'comment',
  CATID: 'catId',
  CATEGORY: 'ucsCategory',
  SUBCATEGORY: 'ucsSubCategory',
};

/**
 * ID3v2.2 to 2.4: TIT2 title; the user's COMM comment (an empty description; iTunes keeps its own
 * data in named ones), else TXXX DESCRIPTION, else TXXX COMMENT; TCON genres; TXXX keywords and
 * UCS fields.
 */
export function fromId3(tags: readonly ITag[]): RawTags {
  const raw: RawTags = {};
  const user: Partial<Record<(typeof ID3_USER_FIELDS)[string], string[]>> = {};
  const comments: Array<{ descriptor: string; text: string }> = [];
  const genres: string[] = [];
  for (const { id, value } of tags) {
    if ((id === 'TIT2' || id === 'TT2') && typeof value === 'string') raw.title ??= value.trim() || undefined;
    else if ((id === 'TCON' || id === 'TCO') && typeof value === 'string') genres.push(value);
    else if ((id === 'COMM' || id === 'COM') && isComment(value))
      comments.push({ descriptor: value.descriptor ?? '', text: value.text ?? '' });
    else {
      const field = userText(id, value);
      const key = field && ID3_USER_FIELDS[field.description.trim().toUpperCase()];
      if (key && field.value.trim()) (user[key] ??= []).push(field.value);
    }
  }
  const kept = comments.filter((comment) => comment.text.trim() !== '' && !comment.descriptor.startsWith('iTun'));
  const description =
    (kept.find((comment) => comment.descriptor === '') ?? kept[0])?.text ?? user.description?.[0] ?? user.comment?.[0];
  if (description) raw.description = description;
  if (genres.length > 0) raw.genres = genres;
  if (user.keywords) raw.keywords = user.keywords;
  if (user.catId) raw.catId = user.catId[0];
  if (user.ucsCategory) raw.ucsCategory = user.ucsCategory[0];
  if (user.ucsSubCategory) raw.ucsSubCategory = user.ucsSubCategory[0];
  return raw;
}

function isComment(value: unknown): value is { descriptor?: string; text?: string } {
  return typeof value === 'object' && value !== null && 'text' in value;
}

/** music-metadata names a TXXX tag `TXXX:description`; ID3v2.2's TXX comes as `description\0value`. */
function userText(id: string, value: unknown): { description: string; value: string } | null {
  if (typeof value !== 'string') return null;
  if (id.startsWith('TXXX:')) return { description: id.slice(5), value };
  if (id === 'TXX') {
    const end = value.indexOf('\u0000');
    return end < 0 ? null : { description: value.slice(0, end), value: value.slice(end + 1).replace(/\u0000+/g, ', ') };
  }
  return null;
}

/**
 * Vorbis comments (FLAC, Ogg Vorbis, Opus, FLAC in Ogg), names in any case: TITLE, DESCRIPTION
 * (else COMMENT), GENRE, KEYWORDS (or KEYWORD, TAGS), and the UCS fields CATID, CATEGORY, SUBCATEGORY.
 */
export function fromVorbis(tags: readonly ITag[]): RawTags {
  const values = new Map<string, string[]>();
  for (const { id, value } of tags) {
    if (typeof value === 'string') values.set(id.toUpperCase(), [...(values.get(id.toUpperCase()) ?? []), value]);
  }
  const first = (...keys: string[]) =>
    keys.flatMap((key) => values.get(key) ?? []).find((value) => value.trim() !== '');
  const raw: RawTags = {};
  const assign = <K extends keyof RawTags>(key: K, value: RawTags[K] | undefined) => {
    if (value !== undefined) raw[key] = value;
  };
  assign('title', first('TITLE'));
  assign('description', first('DESCRIPTION', 'COMMENT'));
  assign('genres', values.get('GENRE'));
  const keywords = ['KEYWORDS', 'KEYWORD', 'TAGS'].flatMap((key) => values.get(key) ?? []);
  if (keywords.length > 0) raw.keywords = keywords;
  assign('catId', first('CATID'));
  assign('ucsCategory', first('CATEGORY'));
  assign('ucsSubCategory', first('SUBCATEGORY'));
  return raw;
}

/** RIFF LIST/INFO: INAM name, ICMT (else ISBJ) description, IKEY keywords (semicolon separated), IGNR genre. */
export function fromRiffInfo(tags: readonly ITag[]): RawTags {
  const text = (id: string) => {
    const value = tags.find((tag) => tag.id === id)?.value;
    return typeof value === 'string' ? reread(value) : undefined;
  };
  const raw: RawTags = {};
  const title = text('INAM');
  if (title) raw.title = title;
  const description = [text('ICMT'), text('ISBJ')].find((value) => value?.trim());
  if (description) raw.description = description;
  const keywords = text('IKEY');
  if (keywords) raw.keywords = [keywords];
  const genre = text('IGNR');
  if (genre) raw.genres = [genre];
  return raw;
}

/**
 * INFO text has no declared encoding; music-metadata decodes it as Latin-1, which keeps every byte.
 * Real files often hold UTF-8, so the bytes are decoded again: valid UTF-8 as such, else Latin-1.
 */
function reread(latin1: string): string {
  return decodeUnlabelled(Buffer.from(latin1, 'latin1'));
}

/** AIFF: the first NAME is the name, every ANNO together the description. */
export function fromAiff(tags: readonly ITag[]): RawTags {
  const text = (id: string) =>
    tags.filter((tag) => tag.id === id && typeof tag.value === 'string').map((tag) => tag.value as string);
  const description = text('ANNO')
    .filter((value) => value.trim())
    .join('\n');
  return { title: text('NAME')[0], ...(description && { description }) };
}
