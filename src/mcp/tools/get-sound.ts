import { z } from 'zod';
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
  description:
    'One sound in full: tags, license, timing, loudness, stream_url (signed, one hour), to decide how to trim ' +
    `or level it. ${SOUND_FIELD_GUIDE}`,
  inputSchema: z.strictObject({ id: soundId }),
  annotations: readOnly({ idempotent: true }),
  async run({ id }, { services }) {
    const sound = toSound(await requireSound(services, id), services.signer);
    return { structured: sound, text: soundDetailText(sound), links: soundLinks([sound]) };
  },
});
