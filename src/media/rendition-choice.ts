import { type BitDepth, FORMATS, OPUS_RATE, type OutputFormat } from '../audio/encode/output-format.ts';
import type { Loudness } from '../audio/types.ts';

/**
 * What a rendition is, with no machinery: the choice a signed URL names, its file's name, extension
 * and type, and what is measured on it. At the bottom of media/, so the signer, the record and the
 * price table use it without importing the service that makes renditions (renditions.ts).
 */

/** The bounds of `loudness` on the stream and download endpoints (clamped, never refused). */
export const RENDITION_LOUDNESS = { min: -40, max: -5 } as const;

/**
 * A rendition as a signed URL names it: a target loudness (whole LU), trimming, and a format other
 * than the catalog's MP3 or a rate, channel count or depth of its own. Defaults are absent (MP3,
 * Opus's 48 kHz, 16 bits), so one file has one name and one URL.
 */
export interface RenditionChoice {
  loudness?: number;
  trim?: boolean;
  /** Absent for MP3. */
  format?: Exclude<OutputFormat, 'mp3'>;
  sampleRate?: number;
  channels?: 1 | 2;
  /** 24 only (16 is the default), for WAV and FLAC. */
  bitDepth?: 24;
  /** Cut to at most this many seconds, with a short fade-out (MCP previews; never in a signed URL). */
  maxSeconds?: number;
}

/** What a rendition file is, measured on it: what the media route states in its headers. */
export interface RenditionFacts {
  duration: number;
  loudness: Loudness;
}

/** `renditions/ab/<content hash>-lu-16-trim-max10-r22050-c1-b24.wav`: one file per content and parameters. */
export function renditionKey(contentHash: string, choice: RenditionChoice): string {
  const parts = [contentHash];
  // `lu` (whole LU), where files of an earlier release were named `l-16.0`: those are not in the record.
  if (choice.loudness !== undefined) parts.push(`lu${choice.loudness}`);
  if (choice.trim) parts.push('trim');
  if (choice.maxSeconds !== undefined) parts.push(`max${choice.maxSeconds}`);
  if (choice.sampleRate !== undefined) parts.push(`r${choice.sampleRate}`);
  if (choice.channels !== undefined) parts.push(`c${choice.channels}`);
  if (choice.bitDepth !== undefined) parts.push(`b${choice.bitDepth}`);
  return `renditions/${contentHash.slice(0, 2)}/${parts.join('-')}.${FORMATS[choice.format ?? 'mp3'].extension}`;
}

/** What a client asked for of the file itself, as query parameters name it (validated by shapes/params.ts). */
export interface OutputQuery {
  format?: OutputFormat;
  sample_rate?: number;
  channels?: 1 | 2;
  bit_depth?: BitDepth;
}

/**
 * A rendition choice as signed URLs carry it: loudness rounded to a whole LU (so -16.4 and -16
 * are one URL and one file, and a client cannot ask for hundreds of variants), trim only when true.
 */
export function renditionChoice(
  loudness: number | undefined,
  trim: boolean | undefined,
  output: OutputQuery = {},
): RenditionChoice {
  const format = output.format === 'mp3' ? undefined : output.format;
  return {
    ...(loudness !== undefined && { loudness: Math.round(loudness) }),
    ...(trim === true && { trim: true }),
    ...(format !== undefined && { format }),
    // Opus has one rate, and 16 bits is the default depth: naming them would make a second URL for one file.
    ...(output.sample_rate !== undefined &&
      !(format === 'opus' && output.sample_rate === OPUS_RATE) && { sampleRate: output.sample_rate }),
    ...(output.channels !== undefined && { channels: output.channels }),
    ...(output.bit_depth === 24 && { bitDepth: 24 as const }),
  };
}

/** Whether a choice asks for a file other than MP3 at the source's rate and channels. */
export function hasOutput(choice: RenditionChoice): boolean {
  return (
    choice.format !== undefined ||
    choice.sampleRate !== undefined ||
    choice.channels !== undefined ||
    choice.bitDepth !== undefined
  );
}

/** The file extension (and so the media URL's) of a rendition: `mp3` for the catalog's own file. */
export function extensionOf(choice: RenditionChoice): string {
  return FORMATS[choice.format ?? 'mp3'].extension;
}

/** The Content-Type of a rendition's file. */
export function contentTypeOf(choice: RenditionChoice): string {
  return FORMATS[choice.format ?? 'mp3'].contentType;
}

/** Whether a choice asks for anything other than the catalog's own file. */
export function isRendition(choice: RenditionChoice): boolean {
  return choice.loudness !== undefined || choice.trim === true || choice.maxSeconds !== undefined || hasOutput(choice);
}
