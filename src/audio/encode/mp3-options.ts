/**
 * Encoder options and the choices made from them.
 *
 * Default VBR quality 2 (LAME -V2, about 170-210 kbit/s): LAME's long-standing recommendation
 * for transparent quality on most material. V0 costs ~30% more bytes for little audible gain;
 * the library default V4 smears sharp transients (clicks, cymbals), common in sound effects.
 */
export interface Mp3EncodeOptions {
  /** LAME VBR quality, 0 (best) to 9; may be fractional. Ignored when `bitrate` is set. Default 2. */
  vbrQuality?: number;
  /** Constant bitrate in kbit/s (8 to 320, see CBR_BITRATES); switches to CBR. LAME takes the nearest
   * bitrate the output rate allows (at most 160 kbit/s below 32 kHz). */
  bitrate?: number;
}

export const DEFAULT_VBR_QUALITY = 2;
/** LAME's constant encoder delay in samples (ENCDELAY), the same at every rate. */
export const LAME_ENCODER_DELAY = 576;

// The bitrates the wasm LAME build accepts (56 and 144 kbit/s are not among them).
const CBR_BITRATES = [8, 16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_SAMPLE_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];

export type Mp3Mode = { kind: 'vbr'; quality: number } | { kind: 'cbr'; bitrate: number };

export function mp3Mode(options: Mp3EncodeOptions = {}): Mp3Mode {
  if (options.bitrate !== undefined) {
    if (!CBR_BITRATES.includes(options.bitrate)) {
      throw new RangeError(`bitrate must be one of ${CBR_BITRATES.join(', ')} kbit/s, got ${options.bitrate}`);
    }
    return { kind: 'cbr', bitrate: options.bitrate };
  }
  const quality = options.vbrQuality ?? DEFAULT_VBR_QUALITY;
  if (!(quality >= 0 && quality <= 9)) throw new RangeError(`vbrQuality must be between 0 and 9, got ${quality}`);
  return { kind: 'vbr', quality };
}

/**
 * The rate the MP3 is written at. MP3 has nine rates; others are resampled: 88.2/176.4 kHz to
 * 44.1 kHz (an integer ratio), every other rate above 48 kHz to 48 kHz, and a rate between two
 * MP3 rates up to the next one, so no bandwidth is lost.
 */
export function mp3SampleRate(sourceRate: number): number {
  if (MP3_SAMPLE_RATES.includes(sourceRate)) return sourceRate;
  if (sourceRate > 48000) return sourceRate % 44100 === 0 ? 44100 : 48000;
  return MP3_SAMPLE_RATES.find((rate) => rate > sourceRate) ?? 48000;
}
