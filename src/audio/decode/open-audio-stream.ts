import type { PcmAudio } from '../types.ts';
import type { AudioFormat, AudioStream } from './audio-stream.ts';
import { type ByteInput, ByteSource } from './byte-source.ts';
import { DecodeError } from './decode-error.ts';
import { openAiffStream } from './aiff.ts';
import { openFlacStream } from './flac.ts';
import { ID3V2_HEADER_BYTES, id3v2TagLength } from './id3.ts';
import { openMp3Stream } from './mp3.ts';
import { openOggStream } from './ogg.ts';
import { SNIFF_BYTES, sniffFormat, UNDECODED_AUDIO_EXTENSIONS, unsupportedFormatReason } from './sniff.ts';
import { openWavStream } from './wav.ts';

const OPENERS: Record<AudioFormat, (source: ByteSource) => Promise<AudioStream>> = {
  wav: openWavStream,
  mp3: openMp3Stream,
  flac: openFlacStream,
  ogg: openOggStream,
  aiff: openAiffStream,
};

/**
 * Opens audio for decoding in chunks, with memory bounded by a chunk whatever the file's length.
 * The format comes from the content; `fileName` only makes a failure's message more helpful.
 * Throws DecodeError when the input is not audio we can decode; the chunks may throw it too
 * (a file that turns out truncated or damaged part way).
 */
export async function openAudioStream(input: ByteInput, fileName?: string): Promise<AudioStream> {
  const source = new ByteSource(input);
  try {
    const hadId3 = await skipId3v2Tags(source);
    const head = await source.peek(SNIFF_BYTES);
    if (head.length === 0 && !hadId3) throw new DecodeError('empty file');
    const format = sniffFormat(head, head.length < SNIFF_BYTES) ?? (hadId3 ? 'mp3' : null);
    if (!format) throw new DecodeError(unsupportedFormatReason(head) ?? unrecognisedReason(fileName));
    const stream = await OPENERS[format](source);
    return { ...stream, chunks: closingWhenDone(stream.chunks, source) };
  } catch (error) {
    await source.close();
    throw error;
  }
}

/** MP3s (and some FLACs) start with one or more ID3v2 tags; their sizes let us skip them unread. */
async function skipId3v2Tags(source: ByteSource): Promise<boolean> {
  let skippedAny = false;
  for (let length = id3v2TagLength(await source.peek(ID3V2_HEADER_BYTES)); length > 0; ) {
    await source.skip(length);
    skippedAny = true;
    length = id3v2TagLength(await source.peek(ID3V2_HEADER_BYTES));
  }
  return skippedAny;
}

function unrecognisedReason(fileName: string | undefined): string {
  const extension = fileName?.match(/\.([a-z0-9]{1,5})$/i)?.[1]?.toLowerCase();
  const expected: Record<string, string> = {
    wav: 'RIFF/WAVE header',
    flac: 'FLAC header',
    ogg: 'Ogg header',
    mp3: 'MPEG audio frames',
    aif: 'FORM/AIFF header',
    aiff: 'FORM/AIFF header',
    aifc: 'FORM/AIFF header',
  };
  const undecoded = extension && UNDECODED_AUDIO_EXTENSIONS.get(extension);
  if (undecoded) return `unsupported audio format: ${undecoded}`;
  const hint = extension && expected[extension] ? ` (named .${extension} but has no ${expected[extension]})` : '';
  return `not a recognised audio file${hint}`;
}

async function* closingWhenDone(chunks: AsyncIterable<PcmAudio>, source: ByteSource): AsyncGenerator<PcmAudio> {
  try {
    yield* chunks;
  } finally {
    await source.close();
  }
}
