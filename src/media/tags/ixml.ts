import { copyrightOf, type FileTags } from './file-tags.ts';

/**
 * The iXML document of a WAV file: the spec's PROJECT and NOTE, and the USER fields sound
 * libraries read (Soundminer's FXNAME, TRACKTITLE, DESCRIPTION, KEYWORDS, CATID, LIBRARY, URL,
 * NOTES; the same ones ingest/tags/ixml.ts reads back). The catalog's category is not UCS's
 * CATEGORY: it goes in NOTES with the licence and id.
 */
export function ixmlDocument(tags: FileTags): string {
  const user: [string, string | null][] = [
    ['FXNAME', tags.name],
    ['TRACKTITLE', tags.name],
    ['DESCRIPTION', tags.description],
    ['KEYWORDS', tags.tags.length > 0 ? tags.tags.join(', ') : null],
    ['CATID', tags.catId],
    ['LIBRARY', 'Sound Catalog'],
    ['URL', tags.url],
    ['NOTES', notesOf(tags)],
    ['EMBEDDER', 'Sound Catalog'],
  ];
  const element = (name: string, value: string | null) => (value ? `<${name}>${escapeXml(value)}</${name}>` : '');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<BWFXML>' +
    element('IXML_VERSION', '2.10') +
    element('PROJECT', 'Sound Catalog') +
    element('NOTE', tags.description ?? tags.name) +
    `<USER>${user.map(([name, value]) => element(name, value)).join('')}</USER>` +
    '</BWFXML>\n'
  );
}

function notesOf(tags: FileTags): string {
  const parts = [];
  if (tags.category) parts.push(`Category: ${tags.category}`);
  parts.push(`License: ${copyrightOf(tags)}`, `Sound id: ${tags.id}`);
  return parts.join('. ');
}

function escapeXml(text: string): string {
  // Control characters other than tab and line breaks are not allowed in XML 1.0 at all.
  return text
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g, '')
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}
