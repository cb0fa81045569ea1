import type { Sound } from '../catalog/sound.ts';
import type { DashboardServices } from '../services.ts';
import type { SoundView } from './pages/sound-card.ts';

/** Adds each sound's waveform and a freshly signed stream URL (it expires, so it is made per page). */
export function soundViews(
  services: Pick<DashboardServices, 'catalog' | 'signer'>,
  sounds: Sound[],
): Promise<SoundView[]> {
  return Promise.all(
    sounds.map(async (sound) => ({
      sound,
      waveform: await services.catalog.waveform(sound.id),
      streamUrl: services.signer.sign(sound.id, 'stream').url,
    })),
  );
}
