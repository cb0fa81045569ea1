import { randomBytes } from 'node:crypto';
import type { AudioMeasurements } from '../../src/audio/types.ts';
import { contentHashOf, type SoundMetadata } from '../../src/catalog/writer.ts';
import type { Services } from '../../src/services.ts';

export interface FixtureSound extends Partial<SoundMetadata>, Partial<Omit<AudioMeasurements, 'duration'>> {
  duration?: number;
  /** Bytes served as the MP3; random by default. */
  bytes?: Uint8Array;
}

/** Puts a sound into the catalog through the real writer, with made-up audio measurements. */
export async function addSound(
  services: Services,
  fixture: FixtureSound = {},
): Promise<{ id: string; bytes: Uint8Array }> {
  const bytes = fixture.bytes ?? new Uint8Array(randomBytes(2048));
  const measurements: AudioMeasurements = {
    duration: fixture.duration ?? 1.5,
    timing: fixture.timing ?? { onset_ms: 12.5, peak_ms: 40.25, tail_ms: 900.125 },
    loudness: fixture.loudness ?? { integrated_lufs: -18.2, true_peak_db: -1.1 },
    waveform: fixture.waveform ?? [[-0.5, 0.5]],
    descriptors: fixture.descriptors ?? null,
  };
  const { id } = await services.catalogWriter.put({
    contentHash: contentHashOf(bytes),
    mp3: bytes,
    metadata: {
      name: fixture.name ?? 'Test Sound',
      description: fixture.description ?? null,
      tags: fixture.tags ?? [],
      category: fixture.category ?? 'SFX',
      license: fixture.license ?? 'CC0',
      sample: fixture.sample ?? false,
      loop: fixture.loop ?? null,
    },
    measurements,
  });
  return { id, bytes };
}
