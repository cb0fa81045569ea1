import { z } from 'zod';
import { LIST_LIMITS } from '../../catalog/limits.ts';
import { notFound } from '../../errors.ts';
import { toPagination, toSimilarSound } from '../../shapes/mappers.ts';
import { detailAsInSearch, toConciseSound } from '../sound-shapes.ts';
import { soundLinks } from '../sound-links.ts';
import { soundListText } from '../sound-text.ts';
import { defineTool, readOnly } from '../tool.ts';
import { soundId } from './arguments.ts';

const { similar } = LIST_LIMITS;

export const findSimilarSoundsTool = defineTool({
  name: 'find_similar_sounds',
  title: 'Find similar sounds',
  description:
    'Sounds most like a given one (timbre, spectrum, envelope, loudness), most similar first, similarity from 1 ' +
    'down (about 0.37: unrelated). For alternatives to a sound the user liked.',
  inputSchema: z.strictObject({
    id: soundId,
    limit: z.int().min(similar.min).max(similar.max).default(similar.default).describe('How many sounds.'),
    detail: detailAsInSearch,
  }),
  annotations: readOnly({ idempotent: true }),
  async run({ id, limit, detail }, { services }) {
    const neighbours = await services.catalog.similar(id, limit);
    if (!neighbours) throw notFound(`Sound ${id} not found`);
    const full = neighbours.map(({ sound, similarity }) => toSimilarSound(sound, similarity, services.signer));
    // The similarity is what this list is about: a concise sound keeps it.
    const data =
      detail === 'full' ? full : full.map((sound) => ({ ...toConciseSound(sound), similarity: sound.similarity }));
    const pagination = toPagination(1, limit, data.length);
    const text =
      data.length === 0
        ? `No similar sounds are known for ${id}: its audio has not been described yet.`
        : soundListText(data, pagination, 'similar sound');
    return { structured: { data, pagination }, text, links: detail === 'full' ? soundLinks(full) : [] };
  },
});
