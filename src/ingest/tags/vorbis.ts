import type { RawTags } from './fields.ts';
import { TagError } from './tag-file.ts';
import { decodeUtf8 } from './text.ts';

const MAX_COMMENTS = 10_000;

/**
 * A Vorbis comment block (FLAC's VORBIS_COMMENT, the second Ogg Vorbis packet after its
 * "\x03vorbis"): a vendor string, then NAME=value pairs in UTF-8, names in any case. TITLE,
 * DESCRIPTION (else COMMENT), GENRE, KEYWORDS, and the UCS fields CATID, CATEGORY, SUBCATEGORY.
 */
export function readVorbisComment(block: Uint8Array): RawTags {
  const data = new DataView(block.buffer, block.byteOffset, block.byteLength);
  let pos = 0;
  const need = (bytes: number) => {
    if (pos + bytes > block.length) throw new TagError('damaged Vorbis comment block: a length runs past its end');
  };
  need(4);
  pos += 4 + data.getUint32(pos, true); // the vendor string
  need(4);
  const count = data.getUint32(pos, true);
  pos += 4;
  if (count > MAX_COMMENTS) throw new TagError(`Vorbis comment block claims ${count} comments`);
  const values = new Map<string, string[]>();
  for (let i = 0; i < count; i++) {
    need(4);
    const length = data.getUint32(pos, true);
    pos += 4;
    need(length);
    const text = decodeUtf8(block.subarray(pos, pos + length));
    pos += length;
    const equals = text.indexOf('=');
    if (equals <= 0) continue;
    const key = text.slice(0, equals).toUpperCase();
    values.set(key, [...(values.get(key) ?? []), text.slice(equals + 1)]);
  }
  const first = (...keys: string[]) => keys.flatMap((key) => values.get(key) ?? []).find((value) => value.trim() !== '');
  const raw: RawTags = {};
  const assign = <K extends keyof RawTags>(key: K, value: RawTags[K] | undefined) => {
    if (value !== undefined) raw[key] = value;
  };
  assign('title', first('TITLE'));
  assign('description', first('DESCRIPTION', 'COMMENT'));
  assign('genre', (values.get('GENRE') ?? []).join(', ') || undefined);
  const keywords = ['KEYWORDS', 'KEYWORD', 'TAGS'].flatMap((key) => values.get(key) ?? []);
  if (keywords.length > 0) raw.keywords = keywords;
  assign('catId', first('CATID'));
  assign('ucsCategory', first('CATEGORY'));
  assign('ucsSubCategory', first('SUBCATEGORY'));
  return raw;
}
