import type { AudioFormat } from './audio-stream.ts';
import { MpegFrameScanner } from './mpeg-frame-scanner.ts';

/** Bytes looked at to tell the format: enough to get past junk before a first MPEG frame. */
export const SNIFF_BYTES = 64 * 1024;
const MPEG_FRAMES_TO_CONFIRM = 3;

/** The format of a file from its first bytes (after any ID3v2 tag), or null when unknown. */
export function sniffFormat(head: Uint8Array, isWholeFile: boolean): AudioFormat | null {
  const magic = ascii(head, 0, 4);
  if ((magic === 'RIFF' || magic === 'RF64' || magic === 'BW64') && ascii(head, 8, 4) === 'WAVE') return 'wav';
  if (magic === 'fLaC') return 'flac';
  if (magic === 'OggS') return 'ogg';
  if (magic === 'FORM' && /^AIF[FC]$/.test(ascii(head, 8, 4))) return 'aiff';
  return looksLikeMpegAudio(head, isWholeFile) ? 'mp3' : null;
}

/**
 * MPEG audio has no magic: a frame header is 11 set bits and some fields. Three consecutive frames
 * of one stream (or every frame of a tiny file) make a match that random data does not give.
 */
function looksLikeMpegAudio(head: Uint8Array, isWholeFile: boolean): boolean {
  const scanner = new MpegFrameScanner();
  let found = scanner.next(head, 0, isWholeFile);
  if (found.kind !== 'frame') return false;
  for (let frames = 1; frames < MPEG_FRAMES_TO_CONFIRM; frames++) {
    const end = found.start + found.header.frameBytes;
    if (isWholeFile && end === head.length) return true;
    found = scanner.next(head, end, isWholeFile);
    if (found.kind !== 'frame' || found.start !== end) return false;
  }
  return true;
}

/** A reason naming what the file is when we know it but do not decode it. */
export function unsupportedFormatReason(head: Uint8Array): string | null {
  const magic = ascii(head, 0, 4);
  if (ascii(head, 4, 4) === 'ftyp') return 'unsupported audio format: MP4/M4A';
  if (magic === 'caff') return 'unsupported audio format: CAF';
  if (magic === 'MThd') return 'unsupported audio format: MIDI (not audio)';
  if (ascii(head, 0, 5) === '#!AMR') return 'unsupported audio format: AMR';
  if (magic === 'wvpk') return 'unsupported audio format: WavPack';
  if (magic === 'MAC ') return "unsupported audio format: Monkey's Audio";
  if (magic === '.snd') return 'unsupported audio format: Sun/NeXT AU';
  if (magic === 'riff' && ascii(head, 24, 4) === 'wave') return 'unsupported audio format: Sony Wave64';
  return null;
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

/**
 * Whether a file's first bytes (32 are enough) are the header of an audio format, decodable or
 * not: ingest tries such a file whatever its name. MPEG audio without an ID3 tag has no header
 * to go by and is not recognised here.
 */
export function looksLikeAudio(head: Uint8Array): boolean {
  const format = sniffFormat(head, false);
  return (format !== null && format !== 'mp3') || ascii(head, 0, 3) === 'ID3' || unsupportedFormatReason(head) !== null;
}

/**
 * Audio formats not decoded, by extension (lower case, no dot), each with its name; null where
 * the file's header names it (unsupportedFormatReason). Ingest tries such files so that `failed`
 * names the format (ingest/walk.ts); open-audio-stream.ts names those without a header.
 */
export const UNDECODED_AUDIO_EXTENSIONS = new Map<string, string | null>([
  ['aac', 'AAC'],
  ['m4a', 'MP4/M4A'],
  ['mp4', 'MP4/M4A'],
  ['alac', 'ALAC'],
  ['wma', 'WMA'],
  ['opus', 'Opus'],
  ['ac3', 'AC-3'],
  ['mp2', 'MPEG layer II'],
  ['amr', 'AMR'],
  ['dsf', 'DSD'],
  ['sd2', 'Sound Designer II'],
  ['mka', 'Matroska audio'],
  ['caf', null],
  ['wv', null],
  ['ape', null],
  ['au', null],
  ['snd', null],
  ['w64', null],
]);
