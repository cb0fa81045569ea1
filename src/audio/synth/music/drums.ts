import { applyPercussive } from '../dsp/envelopes.ts';
import { onePoleLowpass, stateVariableFilter } from '../dsp/filters.ts';
import { mixInto, samplesFor } from '../dsp/mix.ts';
import { whiteNoise } from '../dsp/noise.ts';
import { renderTone } from '../dsp/oscillators.ts';
import type { Random } from '../random.ts';
import type { DrumFlavor } from './styles.ts';

/** One synthesized hit per drum, rendered once per loop and then placed like samples. */
export interface DrumKit {
  kick: Float32Array;
  snare: Float32Array;
  hat: Float32Array;
}

export function buildDrumKit(rng: Random, sampleRate: number, flavor: DrumFlavor): DrumKit {
  const soft = flavor === 'soft';
  // Kick: a sine that drops fast in pitch; the drop is the "punch".
  const kickSeconds = rng.range(0.25, 0.45);
  const kick = renderTone(samplesFor(kickSeconds, sampleRate), sampleRate, {
    waveform: flavor === 'chip' ? 'triangle' : 'sine',
    startHz: soft ? rng.range(100, 130) : rng.range(140, 180),
    endHz: rng.range(44, 55),
    glideSeconds: 0.05,
  });
  applyPercussive(kick, sampleRate, 0.001, kickSeconds);
  if (!soft) {
    const click = whiteNoise(samplesFor(0.004, sampleRate), rng);
    applyPercussive(click, sampleRate, 0.0002, 0.004);
    mixInto(kick, click, 0, 0.3);
  }

  // Snare: noise for the wires over a short tone for the drum head. Soft kits sound brushed.
  const snareSeconds = soft ? rng.range(0.15, 0.25) : rng.range(0.12, 0.2);
  const snare = whiteNoise(samplesFor(snareSeconds, sampleRate), rng);
  stateVariableFilter(snare, sampleRate, 'bandpass', 0.7, soft ? rng.range(1800, 2800) : rng.range(3000, 5000));
  applyPercussive(snare, sampleRate, soft ? 0.006 : 0.001, snareSeconds);
  if (flavor !== 'chip') {
    const head = renderTone(samplesFor(0.08, sampleRate), sampleRate, {
      waveform: 'sine',
      startHz: rng.range(180, 230),
    });
    applyPercussive(head, sampleRate, 0.001, 0.08);
    mixInto(snare, head, 0, soft ? 0.3 : 0.5);
  }

  const hatSeconds = rng.range(0.03, 0.06);
  const hat = whiteNoise(samplesFor(hatSeconds, sampleRate), rng);
  stateVariableFilter(hat, sampleRate, 'highpass', 0.7, soft ? 6000 : 7500);
  if (soft) onePoleLowpass(hat, sampleRate, 9000);
  applyPercussive(hat, sampleRate, 0.0005, hatSeconds);
  return { kick, snare, hat };
}

export const DRUM_LEVELS = { kick: 0.65, snare: 0.6, hat: 0.3 } as const;
