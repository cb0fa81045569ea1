import { ID3V2_HEADER_BYTES, id3v2TagLength } from '../../audio/decode/id3.ts';
import { SNIFF_BYTES, sniffFormat } from '../../audio/decode/sniff.ts';
import { readAiffTags } from './aiff.ts';
import { toFields, type RawTags, type SourcedFields } from './fields.ts';
import { readFlacComments } from './flac.ts';
import { readId3 } from './id3.ts';
import { readOggComments } from './ogg.ts';
import { readRiffTags } from './riff.ts';
import { MAX_CHUNKS, MAX_TAG_BYTES, TagError, TagFile } from './tag-file.ts';

export interface EmbeddedTags {
  /** What each tag source in the file gives, the one to prefer first. */
  found: SourcedFields[];
  /** Tags that were damaged, too large or unreadable, and ignored: the audio is still ingested. */
  notes: string[];
}

/**
 * The metadata written inside an audio file: ID3v2 in MP3, Vorbis comments in FLAC and Ogg,
 * iXML, bext and LIST/INFO in WAV, NAME and ANNO in AIFF. The format comes from the content, as
 * the decoder decides it. Never throws: whatever cannot be read becomes a note.
 */
export async function readEmbeddedTags(filePath: string): Promise<EmbeddedTags> {
  let file: TagFile;
  try {
    file = await TagFile.open(filePath);
  } catch (error) {
    return { found: [], notes: [`could not read tags: ${(error as Error).message}`] };
  }
  try {
    return await readTags(file);
  } catch (error) {
    const reason = error instanceof TagError ? error.message : `could not read tags: ${(error as Error).message}`;
    return { found: [], notes: [reason] };
  } finally {
    await file.close();
  }
}

async function readTags(file: TagFile): Promise<EmbeddedTags> {
  // MP3s (and some FLACs) start with ID3v2 tags; the first one is what MP3 taggers write.
  const firstTag = id3v2TagLength(await file.read(0, ID3V2_HEADER_BYTES));
  let audioStart = 0;
  let length = firstTag;
  for (let tags = 0; length > 0 && audioStart < file.size && tags < MAX_CHUNKS; tags++) {
    audioStart += length;
    length = id3v2TagLength(await file.read(audioStart, ID3V2_HEADER_BYTES));
  }
  const head = await file.read(audioStart, SNIFF_BYTES);
  const format = sniffFormat(head, head.length < SNIFF_BYTES) ?? (audioStart > 0 ? 'mp3' : null);
  switch (format) {
    case 'mp3':
      return firstTag > 0 ? fromId3(await file.read(0, Math.min(firstTag, MAX_TAG_BYTES))) : none();
    case 'flac':
      return single('vorbis', await readFlacComments(file, audioStart));
    case 'ogg':
      return single('vorbis', await readOggComments(file));
    case 'wav':
      return readRiffTags(file);
    case 'aiff':
      return readAiffTags(file);
    default:
      return none();
  }
}

function fromId3(tag: Uint8Array): EmbeddedTags {
  const { raw, notes } = readId3(tag);
  return { ...single('id3', raw), notes };
}

function single(source: 'id3' | 'vorbis', raw: RawTags | null): EmbeddedTags {
  const fields = raw ? toFields(raw) : {};
  return { found: Object.keys(fields).length > 0 ? [{ source, fields }] : [], notes: [] };
}

function none(): EmbeddedTags {
  return { found: [], notes: [] };
}
