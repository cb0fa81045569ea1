import { MPEGDecoder } from 'mpg123-decoder';
import type { PcmAudio } from '../types.ts';
import { type AudioStream, yieldToEventLoop } from './audio-stream.ts';
import type { ByteSource } from './byte-source.ts';
import { withConsoleErrorsCaptured } from './console-capture.ts';
import { freeDecoder } from './free-decoder.ts';
import { DecodeError } from './decode-error.ts';
import { GaplessTrimmer } from './gapless-trim.ts';
import { isMetadataFrame, readVbrTag, trustedGapless } from './lame-tag.ts';
import { type MpegFrame, MpegFrameReader } from './mpeg-frame-reader.ts';

/** Frames are handed to mpg123 in batches of about this many bytes (a few seconds of audio). */
const BATCH_BYTES = 64 * 1024;
/** Room for one more frame past the batch size: the largest MPEG frame (Layer II, 384 kbit/s, 32 kHz) is 1729 bytes. */
const MAX_FRAME_BYTES = 1729;

/**
 * MPEG audio (Layer III, and I/II) through mpg123 with gapless trimming done here, not by mpg123:
 * we find the frames ourselves, drop the tag frame, and cut delay + 529 samples at the start and
 * padding - 529 at the end exactly as ffmpeg does (measured: same count, same alignment).
 * mpg123 always outputs two channels; a mono stream is told by its frame headers, so a stereo
 * file whose channels happen to be identical stays stereo.
 */
export async function openMp3Stream(source: ByteSource): Promise<AudioStream> {
  const reader = new MpegFrameReader(source);
  let first = await reader.next();
  if (!first) throw new DecodeError('MP3 has no audio frames');
  const tag = readVbrTag(first.bytes, first.header);
  const gapless = isMetadataFrame(tag) ? trustedGapless(tag) : null;
  if (isMetadataFrame(tag)) first = await reader.next();
  if (!first) throw new DecodeError('MP3 has no audio frames');
  const { sampleRate, channelCount, samplesPerFrame } = first.header;
  const trimmer = new GaplessTrimmer(gapless, tag?.frameCount ?? null, samplesPerFrame);
  return {
    format: 'mp3',
    sampleRate,
    channelCount,
    gapless,
    chunks: decodeFrames(reader, first, trimmer, sampleRate, channelCount),
  };
}

async function* decodeFrames(
  reader: MpegFrameReader,
  first: MpegFrame,
  trimmer: GaplessTrimmer,
  sampleRate: number,
  channelCount: number,
): AsyncGenerator<PcmAudio> {
  const decoder = new MPEGDecoder({ enableGapless: false });
  const messages: string[] = [];
  let decodedAny = false;
  try {
    await decoder.ready;
    const batch = new Uint8Array(BATCH_BYTES + MAX_FRAME_BYTES);
    let filled = 0;
    for (let frame: MpegFrame | null = first; frame; ) {
      batch.set(frame.bytes, filled);
      filled += frame.bytes.length;
      frame = await reader.next();
      if (filled < BATCH_BYTES && frame) continue;
      const decoded = decodeBatch(decoder, batch.subarray(0, filled), messages);
      filled = 0;
      decodedAny ||= decoded.samplesDecoded > 0;
      const kept = trimmer.trim(decoded.channelData.slice(0, channelCount));
      if ((kept[0]?.length ?? 0) > 0) yield { sampleRate, channels: kept };
      await yieldToEventLoop();
    }
  } finally {
    freeDecoder(decoder);
  }
  if (!decodedAny) throw new DecodeError(`damaged MP3 data${messages[0] ? `: ${messages[0]}` : ''}`);
}

function decodeBatch(decoder: MPEGDecoder, bytes: Uint8Array, messages: string[]) {
  try {
    return withConsoleErrorsCaptured(() => decoder.decode(bytes), messages);
  } catch (error) {
    throw new DecodeError('damaged MP3 data', { cause: error });
  }
}
