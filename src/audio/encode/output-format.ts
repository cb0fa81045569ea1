/**
 * The formats a rendition can be delivered in, and what each allows: one table that the query
 * schema (shapes/params.ts), the signed URL, the media route and the encoders all read, so a
 * combination the encoders cannot make is refused before a URL is signed.
 */
export const OUTPUT_FORMATS = ['mp3', 'wav', 'flac', 'ogg', 'opus'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const BIT_DEPTHS = [16, 24] as const;
export type BitDepth = (typeof BIT_DEPTHS)[number];

/** The sample rates a client may ask for, in Hz. */
export const SAMPLE_RATE_RANGE = { min: 8000, max: 192_000 } as const;

/** The nine rates MPEG audio has (layer III, versions 1, 2 and 2.5). */
export const MP3_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
/** Opus runs at 48 kHz inside; an Ogg Opus file is always decoded at 48 kHz. */
export const OPUS_RATE = 48_000;

interface FormatFacts {
  /** The media URL's and the downloaded file's extension. */
  extension: string;
  contentType: string;
  /** The rates the format takes, when not any in SAMPLE_RATE_RANGE. */
  rates?: readonly number[];
  /** Whether `bit_depth` applies (PCM formats). */
  hasBitDepth: boolean;
}

export const FORMATS: Record<OutputFormat, FormatFacts> = {
  mp3: { extension: 'mp3', contentType: 'audio/mpeg', rates: MP3_RATES, hasBitDepth: false },
  wav: { extension: 'wav', contentType: 'audio/wav', hasBitDepth: true },
  flac: { extension: 'flac', contentType: 'audio/flac', hasBitDepth: true },
  ogg: { extension: 'ogg', contentType: 'audio/ogg; codecs=vorbis', hasBitDepth: false },
  opus: { extension: 'opus', contentType: 'audio/ogg; codecs=opus', rates: [OPUS_RATE], hasBitDepth: false },
};

/** What a client asked for beyond the format: absent means the source's own (or the format's only one). */
export interface OutputChoice {
  format: OutputFormat;
  sampleRate?: number;
  channels?: 1 | 2;
  bitDepth?: BitDepth;
}

/** What is wrong with a combination, one message per parameter (empty when it can be made). */
export function outputProblems(choice: OutputChoice): Array<{ param: string; message: string }> {
  const facts = FORMATS[choice.format];
  const problems: Array<{ param: string; message: string }> = [];
  if (choice.sampleRate !== undefined && facts.rates && !facts.rates.includes(choice.sampleRate)) {
    problems.push({
      param: 'sample_rate',
      message: `${choice.format} is made at ${facts.rates.join(', ')} Hz, not ${choice.sampleRate}`,
    });
  }
  if (choice.bitDepth !== undefined && !facts.hasBitDepth) {
    problems.push({ param: 'bit_depth', message: `applies to wav and flac only, not ${choice.format}` });
  }
  return problems;
}

/** The whole target, every choice made: the source's rate and channels where the client left them. */
export interface OutputTarget {
  format: OutputFormat;
  sampleRate: number;
  channels: 1 | 2;
  bitDepth: BitDepth;
}

export function outputTarget(choice: OutputChoice, source: { sampleRate: number; channelCount: number }): OutputTarget {
  const rates = FORMATS[choice.format].rates;
  const own = choice.sampleRate ?? source.sampleRate;
  // The source's rate where the format has it; otherwise the format's nearest rate at or above it.
  const sampleRate =
    !rates || rates.includes(own) ? own : (rates.find((rate) => rate >= own) ?? rates[rates.length - 1]!);
  return {
    format: choice.format,
    sampleRate,
    channels: choice.channels ?? (source.channelCount === 1 ? 1 : 2),
    bitDepth: choice.bitDepth ?? 16,
  };
}
