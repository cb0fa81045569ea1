import type { PcmAudio } from '../../src/audio/types.ts';
import { contentHashOf } from '../../src/catalog/writer.ts';
import { encodeAndMeasure } from '../../src/ingest/measure.ts';
import type { Services } from '../../src/services.ts';

/**
 * A tone of `seconds` at 44.1 kHz, mono, with a slow tremolo so it is not one flat level, at
 * `amplitude` (0.05 is about -30 LUFS). Previews and resource blobs need real MP3s.
 */
export function tone(seconds: number, amplitude: number, frequency = 440): PcmAudio {
  const sampleRate = 44_100;
  const samples = new Float32Array(Math.round(seconds * sampleRate));
  for (let i = 0; i < samples.length; i++) {
    const t = i / sampleRate;
    samples[i] = amplitude * (0.75 + 0.25 * Math.sin(2 * Math.PI * 0.5 * t)) * Math.sin(2 * Math.PI * frequency * t);
  }
  return { sampleRate, channels: [samples] };
}

/** Encodes the audio as the catalog's MP3 and puts it in through the real writer, measured for real. */
export async function addRealSound(
  services: Services,
  audio: PcmAudio,
  name: string,
  tags: string[] = [],
): Promise<{ id: string; mp3: Uint8Array }> {
  const { mp3, measurements } = await encodeAndMeasure(audio);
  const { id } = await services.catalogWriter.put({
    contentHash: contentHashOf(mp3),
    mp3,
    measurements,
    metadata: { name, description: null, tags, category: 'SFX', license: 'CC0', sample: false },
  });
  return { id, mp3 };
}
