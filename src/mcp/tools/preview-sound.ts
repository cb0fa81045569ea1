import { z } from 'zod';
import { payerOf } from '../../metering/meter.ts';
import { toSound } from '../../shapes/mappers.ts';
import { soundLinks } from '../sound-links.ts';
import { soundDetailText } from '../sound-text.ts';
import { storedMp3Base64 } from '../stored-audio.ts';
import { limitReached } from '../../errors.ts';
import { RenditionsBusyError, RenditionTimeoutError } from '../../media/renditions.ts';
import { RenditionCharge, RenditionQuotaError } from '../../media/rendition-payment.ts';
import { RENDITION_PRICE } from '../../media/rendition-work.ts';
import { defineTool, readOnly } from '../tool.ts';
import { soundId } from './arguments.ts';
import { requireSound } from './require-sound.ts';

/**
 * Every preview is the same kind of thing, so an agent compares sounds and not levels: the
 * sound from its onset, at most PREVIEW_SECONDS with a short fade-out, at PREVIEW_LUFS with the
 * true peak at or under -1 dBTP. It is a rendition (media/renditions.ts): made once per content
 * in a worker thread and kept on disk, under the renditions' bounds and cost.
 */
export const PREVIEW_SECONDS = 10;
export const PREVIEW_LUFS = -16;
const PREVIEW = { loudness: PREVIEW_LUFS, trim: true, maxSeconds: PREVIEW_SECONDS };

export const previewSoundTool = defineTool({
  name: 'preview_sound',
  title: 'Hear a sound',
  description:
    `Hear one sound: an MP3 audio item, at most ${PREVIEW_SECONDS} s from its onset at ${PREVIEW_LUFS} LUFS so ` +
    `previews compare, its spectrogram (PNG), and the sound in full. A new preview costs ${RENDITION_PRICE} requests, then only the call. ` +
    'Judge by ear before get_download_url.',
  inputSchema: z.strictObject({ id: soundId }),
  annotations: readOnly({ idempotent: true }),
  async run({ id }, { services, owner }) {
    const stored = await requireSound(services, id);
    // A preview is a rendition like any other: one not stored yet costs the caller's account its
    // price (given back if it fails), and waits in the same bounded line for a thread.
    const pay = (price: number) => RenditionCharge.take(services.meter, services.clock, payerOf(owner), price);
    const { fileKey, facts } = await services.renditions.get(stored, PREVIEW, { pay }).catch((error: unknown) => {
      if (error instanceof RenditionQuotaError) {
        throw limitReached(
          `a preview not made before costs ${error.price} requests of the daily quota, more than is left today`,
        );
      }
      if (error instanceof RenditionTimeoutError) {
        throw limitReached(`${error.message}; nothing was charged (previews are made like renditions)`);
      }
      throw error instanceof RenditionsBusyError
        ? limitReached(`${error.message} (previews are made like renditions)`)
        : error;
    });
    // The small spectrogram: a model sees what the sound is made of beside hearing it.
    const spectrogram = await services.pictures.get(stored, 'spectrogram', 'small').catch((error: unknown) => {
      throw error instanceof RenditionsBusyError || error instanceof RenditionTimeoutError
        ? limitReached(`${error.message} (the spectrogram is made like a rendition)`)
        : error;
    });
    const sound = toSound(stored, services.signer);
    const preview = { mime_type: 'audio/mpeg' as const, duration: facts.duration, loudness: facts.loudness };
    const lufs = facts.loudness.integrated_lufs;
    const seconds = Number(facts.duration.toFixed(2));
    const level = lufs === null ? ' (silent)' : ` at ${Number(lufs.toFixed(1))} LUFS`;
    return {
      structured: { sound, preview },
      text: `Preview: ${seconds} s of MP3${level}, in the audio item; its spectrogram in the image.\n${soundDetailText(sound)}`,
      audio: { type: 'audio', data: await storedMp3Base64(services, stored, fileKey, PREVIEW), mimeType: 'audio/mpeg' },
      image: { type: 'image', data: spectrogram.png.toString('base64'), mimeType: 'image/png' },
      links: soundLinks([sound]),
    };
  },
});
