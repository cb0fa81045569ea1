import type { RawTags } from './fields.ts';
import { TagError } from './bounded-file.ts';
import { decodeUtf16, decodeUtf8 } from './text.ts';

/**
 * An iXML chunk (the BWFXML document). Sound libraries keep their metadata in its USER object,
 * one element per field (Soundminer's FXNAME, DESCRIPTION, KEYWORDS, CATID, CATEGORY,
 * SUBCATEGORY, and TRACKTITLE); the recorder's NOTE is a description when nothing better is given.
 * Only these elements are looked for; nothing else in the document is parsed.
 */
export function readIxml(bytes: Uint8Array): RawTags {
  const text = decodeXml(bytes);
  if (!text.includes('<BWFXML')) throw new TagError('iXML chunk holds no BWFXML document');
  const user = between(text, '<USER>', '</USER>');
  const outside = user === undefined ? text : text.replace(`<USER>${user}</USER>`, '');
  const raw: RawTags = {};
  const set = <K extends keyof RawTags>(key: K, value: RawTags[K] | undefined) => {
    if (value !== undefined && value !== '') raw[key] = value;
  };
  set('title', element(user, 'FXNAME') ?? element(user, 'TRACKTITLE'));
  set('description', element(user, 'DESCRIPTION') ?? element(outside, 'NOTE'));
  const keywords = element(user, 'KEYWORDS');
  if (keywords) raw.keywords = [keywords];
  set('catId', element(user, 'CATID'));
  set('ucsCategory', element(user, 'CATEGORY'));
  set('ucsSubCategory', element(user, 'SUBCATEGORY'));
  return raw;
}

/**
 * The text of the first <NAME> element (tags are upper case, as the spec writes them). Found with
 * indexOf, not a regular expression: hostile text cannot make it slower than one pass.
 */
function element(xml: string | undefined, name: string): string | undefined {
  const inner = xml === undefined ? undefined : between(xml, `<${name}>`, `</${name}>`);
  if (inner === undefined) return undefined;
  const cdata = inner.trim();
  if (cdata.startsWith('<![CDATA[') && cdata.endsWith(']]>')) return cdata.slice(9, -3).trim() || undefined;
  if (inner.includes('<')) return undefined; // an object, not a value
  return unescapeXml(inner).trim() || undefined;
}

function between(text: string, open: string, close: string): string | undefined {
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(close, start + open.length);
  return end < 0 ? undefined : text.slice(start + open.length, end);
}

/** iXML is "single byte or unicode" with no label: UTF-16 shows in its byte order mark or zero bytes. */
function decodeXml(bytes: Uint8Array): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0x3c && bytes[1] === 0)) return decodeUtf16(bytes);
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0 && bytes[1] === 0x3c))
    return decodeUtf16(bytes, true);
  return decodeUtf8(bytes).replace(/^\uFEFF/, '');
}

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/gi, (whole, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith('#')) {
      const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[lower]!;
  });
}
