import { z } from 'zod';
import { LIST_LIMITS } from '../../catalog/limits.ts';
import { notFound } from '../../errors.ts';
import { paginationSchema, similarSoundSchema } from '../../shapes/schemas.ts';
import { toPagination, toSimilarSound } from '../../shapes/mappers.ts';
import { SOUND_FIELD_GUIDE } from '../field-guide.ts';
import { soundLinks } from '../sound-links.ts';
import { soundListText } from '../sound-text.ts';
import { defineTool, readOnly } from '../tool.ts';
import { soundId } from './arguments.ts';

const { similar } = LIST_LIMITS;

export const findSimilarSoundsTool = defineTool({
  name: 'find_similar_sounds',
  title: 'Find sounds that sound alike',
  description: 'Sounds that sound like a given one (by the audio itself: timbre, spectral shape, envelope, loudness), '
    + 'most similar first, each with a similarity from 1 down (about 0.37 for an unrelated pair); never the sound itself. '
    + 'Use it to offer alternatives or variations of a sound the user liked, as GET /api/v1/sounds/{id}/similar does. '
    + SOUND_FIELD_GUIDE,
  inputSchema: z.strictObject({
    id: soundId,
    limit: z.int().min(similar.min).max(similar.max).default(similar.default)
      .describe(`How many sounds, ${similar.min} to ${similar.max}, default ${similar.default}.`),
  }),
  outputSchema: z.object({ data: z.array(similarSoundSchema), pagination: paginationSchema }),
  annotations: readOnly({ title: 'Find sounds that sound alike', idempotent: true }),
  async run({ id, limit }, { services }) {
    const neighbours = await services.catalog.similar(id, limit);
    if (!neighbours) throw notFound(`Sound ${id} not found`);
    const data = neighbours.map(({ sound, similarity }) => toSimilarSound(sound, similarity, services.signer));
    const pagination = toPagination(1, limit, data.length);
    const text = data.length === 0
      ? `No similar sounds are known for ${id}: its audio has not been described yet.`
      : soundListText(data, pagination, 'similar sound');
    return { structured: { data, pagination }, text, links: soundLinks(data) };
  },
});
