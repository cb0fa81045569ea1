import { z } from 'zod';
import { notFound } from '../../errors.ts';
import { etagMatches, PICTURE_SIZES, type PictureKind } from '../../media/pictures.ts';
import { RenditionsBusyError, RenditionTimeoutError } from '../../media/renditions.ts';
import { HttpError } from '../../shapes/answers.ts';
import { errorSchema } from '../../shapes/schemas.ts';
import { defineEndpoint } from '../endpoint.ts';
import { authErrors, errorResponses } from './responses.ts';

/** Seconds a client waits before asking again for a picture that could not be made now. */
const BUSY_RETRY_SECONDS = 5;
/** A picture changes only with its sound's content (whose change gives a new ETag): a client keeps it a day. */
const CACHE_CONTROL = 'private, max-age=86400';

const sizes = Object.keys(PICTURE_SIZES) as Array<keyof typeof PICTURE_SIZES>;
const sizeText = sizes.map((size) => `${size} ${PICTURE_SIZES[size].width}×${PICTURE_SIZES[size].height}`).join(', ');

const DRAWN: Record<PictureKind, { name: string; what: string }> = {
  waveform: {
    name: 'Waveform',
    what: "the sound's waveform: each column as tall as its largest excursion, mirrored about the middle",
  },
  spectrogram: {
    name: 'Spectrogram',
    what:
      "the sound's spectrogram: time across, frequency up on a logarithmic axis from 40 Hz to half the sample rate, " +
      'level (dB, -100 to 0 against a full-scale sine) as colour from dark to light',
  },
};

function pictureEndpoint(kind: PictureKind) {
  const { name, what } = DRAWN[kind];
  return defineEndpoint({
    method: 'GET',
    url: `/api/v1/sounds/:id/${kind}.png`,
    operationId: `getSound${name}Png`,
    summary: `Get the ${kind} picture`,
    description:
      `A PNG of ${what}, on a dark background; silence is background only. Sizes: ${sizeText}. ` +
      'Made on the first request and kept; the ETag is a hash of the bytes, and If-None-Match answers 304. ' +
      'Each call counts one request, a 304 too.',
    tag: 'extensions',
    security: 'apiKey',
    query: z.object({
      size: z.enum(sizes).default('large').describe(`The picture's size: ${sizeText} pixels. Default large.`),
    }),
    params: z.object({ id: z.string().describe('Sound id.') }),
    responses: {
      200: {
        description: `The ${kind}, image/png.`,
        mediaType: 'image/png',
        schema: z.string().describe('The PNG file (indexed colour, 8 bits).'),
      },
      304: { description: 'Not modified: the If-None-Match header names the current ETag.' },
      400: { description: 'Invalid size (name or value).', schema: errorResponses[400].schema },
      404: errorResponses[404],
      ...authErrors,
      503: {
        description: 'Too many pictures and renditions are being made, or this one took too long: try again.',
        schema: errorSchema,
      },
    },
    async handler({ params, query, services, request, reply }) {
      const sound = await services.catalog.findById(params.id);
      if (!sound) throw notFound(`Sound ${params.id} not found`);
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const picture = await services.pictures.get(sound, kind, query.size, gone.signal).catch((error: unknown) => {
        if (error instanceof RenditionsBusyError || error instanceof RenditionTimeoutError || gone.signal.aborted) {
          throw new HttpError(
            503,
            { error: `The ${kind} could not be made now: ${(error as Error).message}` },
            { 'retry-after': BUSY_RETRY_SECONDS, 'cache-control': 'no-store' },
          );
        }
        throw error;
      });
      reply.headers({ etag: picture.etag, 'cache-control': CACHE_CONTROL });
      const ifNoneMatch = request.headers['if-none-match'];
      if (etagMatches(ifNoneMatch, picture.etag)) return reply.code(304).send();
      return reply.type('image/png').send(picture.png);
    },
  });
}

export const getWaveformPng = pictureEndpoint('waveform');
export const getSpectrogramPng = pictureEndpoint('spectrogram');
