/**
 * Long MP3 sources for the rendition tests and the memory benchmark, made in seconds: a short
 * block is encoded once (CBR, without the Info tag frame) and its frames written again and again.
 * A block starts with an empty bit reservoir, so each copy decodes on its own; the decoder sees one
 * long untagged stream (a few milliseconds of encoder delay at each seam).
 */
import { open } from 'node:fs/promises';
import { Mp3StreamEncoder } from '../../../src/audio/encode/mp3-stream-encoder.ts';
import { gaussianNoise, seededRandom } from './signals.ts';

const RATE = 48000;
const BLOCK_SECONDS = 20;

/**
 * Writes `minutes` of stereo 48 kHz MP3 at 32 kbit/s to `file`: noise in both channels with a
 * tone that swells on the left, and a short loud burst every two seconds, so a loudness target
 * above the sound's own makes the limiter work on the bursts.
 */
export async function writeLongMp3(file: string, minutes: number): Promise<void> {
  const encoder = await Mp3StreamEncoder.create({ sampleRate: RATE, channelCount: 2 }, { bitrate: 32 });
  const frames = encoder.encode(block());
  frames.push(...encoder.finish().frames);
  const handle = await open(file, 'w');
  try {
    for (let copy = 0; copy < (minutes * 60) / BLOCK_SECONDS; copy++) {
      for (const frame of frames) await handle.write(frame);
    }
  } finally {
    await handle.close();
  }
}

function block() {
  const length = BLOCK_SECONDS * RATE;
  const noise = gaussianNoise(seededRandom(28));
  const left = new Float32Array(length);
  const right = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const t = i / RATE;
    const swell = 0.5 + 0.5 * Math.sin((2 * Math.PI * t) / BLOCK_SECONDS);
    const burst = t % 2 < 0.002 ? 0.4 * Math.sin(2 * Math.PI * 1000 * t) : 0;
    left[i] = 0.04 * noise() + 0.1 * swell * Math.sin(2 * Math.PI * 220 * t) + burst;
    right[i] = 0.04 * noise() + burst;
  }
  return { sampleRate: RATE, channels: [left, right] };
}
