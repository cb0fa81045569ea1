import { parseBuffer, parseFromTokenizer, type IAudioMetadata, type IOptions } from 'music-metadata';
import { BufferSizeError } from 'strtok3';
import { ID3V2_HEADER_BYTES, id3v2TagLength } from '../../audio/decode/id3.ts';
import { SNIFF_BYTES, sniffFormat } from '../../audio/decode/sniff.ts';
import { BoundedTagFile, TagError } from './bounded-file.ts';
import { readBwfTags } from './bwf.ts';
import { leadingId3Tag } from './id3-tag.ts';
import { toFields, type MetadataSource, type RawTags, type SourcedFields } from './fields.ts';
import { fromAiff, fromId3, fromRiffInfo, fromVorbis } from './native-tags.ts';
import { vorbisLoop, type FoundLoop } from './loop-tags.ts';

export interface EmbeddedTags {
  /** What each tag source in the file gives, the one to prefer first. */
  found: SourcedFields[];
  /** Tags that were damaged, too large or unreadable, and ignored: the audio is still ingested. */
  notes: string[];
  /** Loop points the file gives (WAV smpl, Vorbis LOOPSTART and LOOPLENGTH), not yet checked. */
  loop?: FoundLoop;
}

/** The formats ingest decodes, as music-metadata names them: it then picks its parser by this, not by the file name. */
const MIME_TYPES = {
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  aiff: 'audio/aiff',
} as const;
type Format = keyof typeof MIME_TYPES;
const MAX_ID3_TAGS = 1000;

/**
 * The metadata written inside an audio file, read by music-metadata: ID3v2 in MP3, Vorbis comments
 * in FLAC and Ogg, LIST/INFO in WAV, NAME and ANNO in AIFF; and by our own readers what it does not
 * read: iXML and the bext Description in WAV. The format comes from the content, as the decoder
 * decides it. Never throws: whatever cannot be read becomes a note.
 */
export async function readEmbeddedTags(filePath: string): Promise<EmbeddedTags> {
  let file: BoundedTagFile | undefined;
  try {
    file = await BoundedTagFile.openBounded(filePath, 'application/octet-stream');
    const format = await sniff(file);
    if (!format) return { found: [], notes: [] };
    file.fileInfo.mimeType = MIME_TYPES[format];
    return await readTags(file, format);
  } catch (error) {
    return { found: [], notes: [`could not read tags: ${(error as Error).message}`] };
  } finally {
    await file?.close();
  }
}

async function sniff(file: BoundedTagFile): Promise<Format | null> {
  // MP3s (and some FLACs) start with ID3v2 tags: the format is that of what follows them.
  let audioStart = 0;
  for (
    let tags = 0, length = id3v2TagLength(await file.bytesAt(0, ID3V2_HEADER_BYTES));
    length > 0 && audioStart < file.fileInfo.size && tags < MAX_ID3_TAGS;
    tags++
  ) {
    audioStart += length;
    length = id3v2TagLength(await file.bytesAt(audioStart, ID3V2_HEADER_BYTES));
  }
  const head = await file.bytesAt(audioStart, SNIFF_BYTES);
  return sniffFormat(head, head.length < SNIFF_BYTES) ?? (audioStart > 0 ? 'mp3' : null);
}

async function readTags(file: BoundedTagFile, format: Format): Promise<EmbeddedTags> {
  const notes: string[] = [];
  const raw: Array<[MetadataSource, RawTags | undefined]> = [];
  let loop: FoundLoop | undefined;
  if (format === 'wav') {
    const bwf = await readBwfTags(file);
    raw.push(['ixml', bwf.ixml], ['bext', bwf.bext]);
    notes.push(...bwf.notes);
    loop = bwf.loop;
  }
  const parsed = await parseNative(file, format, notes);
  if (parsed) {
    const native = (type: string) => parsed.native[type] ?? [];
    if (format === 'mp3') raw.push(['id3', fromId3(['ID3v2.2', 'ID3v2.3', 'ID3v2.4'].flatMap(native))]);
    if (format === 'flac' || format === 'ogg') {
      raw.push(['vorbis', fromVorbis(native('vorbis'))]);
      const vorbis = vorbisLoop(native('vorbis'));
      if (vorbis.note) notes.push(vorbis.note);
      if (vorbis.loop) loop = vorbis.loop;
    }
    if (format === 'wav') raw.push(['info', fromRiffInfo(native('exif'))]);
    if (format === 'aiff') raw.push(['aiff', fromAiff(native('AIFF'))]);
  }
  const found = raw
    .map(([source, tags]) => ({ source, fields: tags ? toFields(tags) : {} }))
    .filter(({ fields }) => Object.keys(fields).length > 0);
  return { found, notes, ...(loop && { loop }) };
}

/** music-metadata's reading of the file (covers and the duration skipped), or null with a note. */
async function parseNative(file: BoundedTagFile, format: Format, notes: string[]): Promise<IAudioMetadata | null> {
  try {
    const options: IOptions = { skipCovers: true, duration: false };
    let parsed: IAudioMetadata;
    if (format === 'mp3') {
      const tag = await leadingId3Tag(file);
      if (!tag) return null;
      parsed = await parseBuffer(tag, 'audio/mpeg', options);
    } else {
      parsed = await parseFromTokenizer(file, options);
    }
    notes.push(...damageWarnings(parsed.quality.warnings.map((warning) => warning.message)));
    if (file.ranPastEnd) notes.push(`${format.toUpperCase()} tags ignored: one runs past the end of the file`);
    return parsed;
  } catch (error) {
    const reason =
      error instanceof BufferSizeError
        ? `a tag of ${error.requestedSize} bytes is larger than 1 MiB`
        : error instanceof TagError
          ? error.message
          : `could not read them: ${(error as Error).message}`;
    notes.push(`${format.toUpperCase()} tags ignored: ${reason}`);
    return null;
  }
}

/**
 * The warnings music-metadata gives about a damaged ID3 tag, as notes. Padding after the last
 * frame shows as frames of zero bytes and a length that does not fit: not damage.
 */
function damageWarnings(warnings: string[]): string[] {
  const padded = warnings.some((warning) => /frame-header-ID: \u0000+$/.test(warning));
  return warnings
    .filter((warning) => /id3v2/i.test(warning))
    .filter((warning) => !/\u0000{3}/.test(warning) && !(padded && warning === 'Illegal ID3v2 tag length'))
    .map(
      (warning) =>
        `ID3 tag damaged: ${warning.replace(/[^\x20-\x7e\u00a0-\uffff]/g, '?')}; what could be read was kept`,
    );
}
