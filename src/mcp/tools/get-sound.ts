import { z } from 'zod';
import { soundSchema } from '../../shapes/schemas.ts';
import { toSound } from '../../shapes/mappers.ts';
import { SOUND_FIELD_GUIDE } from '../field-guide.ts';
import { soundLinks } from '../sound-links.ts';
import { soundDetailText } from '../sound-text.ts';
import { defineTool, readOnly } from '../tool.ts';
import { soundId } from './arguments.ts';
import { requireSound } from './require-sound.ts';

export const getSoundTool = defineTool({
  name: 'get_sound',
  title: 'Get one sound',
  description: 'Full metadata of one sound by id: name, description, tags, category, license, duration, timing, loudness '
    + `and a streaming URL. ${SOUND_FIELD_GUIDE}`,
  inputSchema: z.strictObject({ id: soundId }),
  outputSchema: soundSchema,
  annotations: readOnly({ title: 'Get one sound', idempotent: true }),
  async run({ id }, { services }) {
    const sound = toSound(await requireSound(services, id), services.signer);
    return { structured: sound, text: soundDetailText(sound), links: soundLinks([sound]) };
  },
});
