import { z } from 'zod';
import {
  BIT_DEPTHS,
  MP3_RATES,
  OPUS_RATE,
  OUTPUT_FORMATS,
  outputProblems,
  SAMPLE_RATE_RANGE,
} from '../audio/encode/output-format.ts';

/**
 * The one grammar of the file's format parameters (`format`, `sample_rate`, `channels`,
 * `bit_depth`): the REST query (shapes/params.ts), the MCP tools' arguments (mcp/tools/arguments.ts)
 * and the signed URL's verifier (signing.ts) all parse them with these schemas and check the
 * combination with `refineFormat`, against the one table of formats (audio/encode/output-format.ts).
 */

/** A whole number as JSON writes it (44100) or as a query string does ("44100"); anything else fails. */
const fromDigits = (value: unknown) => (typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value);

const RATES = `${SAMPLE_RATE_RANGE.min} to ${SAMPLE_RATE_RANGE.max}`;

export const formatFields = {
  format: z
    .enum(OUTPUT_FORMATS, { error: `must be one of ${OUTPUT_FORMATS.join(', ')}` })
    .optional()
    .describe(
      "The file's format: mp3 (default, the catalog's own file unless another parameter asks for " +
        'a rendition), wav (PCM), flac, ogg (Ogg Vorbis) or opus (Ogg Opus). Any other is a rendition, made and paid ' +
        'for as `loudness` says; the media response states its loudness and duration in X-Integrated-LUFS, ' +
        'X-True-Peak-dBTP and X-Duration-Seconds, its format in Content-Type.',
    ),
  sample_rate: z
    .preprocess(
      fromDigits,
      z
        .int({ error: `must be a whole number of Hz, ${RATES}` })
        .min(SAMPLE_RATE_RANGE.min)
        .max(SAMPLE_RATE_RANGE.max),
    )
    .optional()
    .describe(
      `The file's sample rate in Hz (${RATES}; default the sound's own). ` +
        `mp3 takes ${MP3_RATES.join(', ')}; opus only ${OPUS_RATE}.`,
    ),
  channels: z
    .preprocess(fromDigits, z.literal([1, 2], { error: 'must be 1 or 2' }))
    .optional()
    .describe("1 (mono, the two sides averaged) or 2 (stereo); default the sound's own."),
  bit_depth: z
    .preprocess(fromDigits, z.literal(BIT_DEPTHS, { error: `must be ${BIT_DEPTHS.join(' or ')}` }))
    .optional()
    .describe('Bits per sample of wav and flac, 16 (default) or 24; refused with any other format.'),
};

export type FormatParams = z.output<z.ZodObject<typeof formatFields>>;

/** Refuses a combination no encoder makes (opus at 44.1 kHz, 24 bits of MP3), naming the parameter. */
export function refineFormat(input: FormatParams, context: z.RefinementCtx): void {
  const problems = outputProblems({
    format: input.format ?? 'mp3',
    sampleRate: input.sample_rate,
    channels: input.channels,
    bitDepth: input.bit_depth,
  });
  for (const { param, message } of problems) context.addIssue({ code: 'custom', path: [param], message });
}

/** The four parameters alone, checked together: what the signed URL's verifier parses. */
export const formatParams = z.object(formatFields).superRefine(refineFormat);
