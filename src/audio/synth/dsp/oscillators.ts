/** Band-limited-enough oscillators that render whole notes into fresh buffers. */

export type Waveform = 'sine' | 'triangle' | 'square' | 'saw';

const TABLE_SIZE = 4096;
const SINE_TABLE = new Float32Array(TABLE_SIZE + 1);
for (let i = 0; i <= TABLE_SIZE; i++) SINE_TABLE[i] = Math.sin((2 * Math.PI * i) / TABLE_SIZE);

/** sin(2π·phase) by table lookup; Math.sin per sample costs several times more. */
export function sineCycle(phase: number): number {
  const position = (phase - Math.floor(phase)) * TABLE_SIZE;
  const index = position | 0;
  const low = SINE_TABLE[index]!;
  return low + (SINE_TABLE[index + 1]! - low) * (position - index);
}

/** PolyBLEP correction: removes most aliasing from the jumps of saw and square waves. */
function polyBlep(t: number, dt: number): number {
  if (t < dt) {
    const x = t / dt;
    return x + x - x * x - 1;
  }
  if (t > 1 - dt) {
    const x = (t - 1) / dt;
    return x * x + x + x + 1;
  }
  return 0;
}

export interface ToneSpec {
  waveform: Waveform;
  startHz: number;
  /** Pitch reached after `glideSeconds` by an exponential glide; defaults to startHz. */
  endHz?: number;
  /** Defaults to the whole tone. */
  glideSeconds?: number;
  vibratoHz?: number;
  vibratoSemitones?: number;
  /** Square waves only: fraction of the cycle spent high. */
  pulseWidth?: number;
  /** Starting phase in cycles. */
  phase?: number;
}

/**
 * Pitch (glide and vibrato) is updated once per block of samples: steps of under a millisecond
 * are inaudible, and it keeps Math.pow and the waveform choice out of the per-sample loop.
 */
const PITCH_BLOCK = 32;

export function renderTone(length: number, sampleRate: number, spec: ToneSpec): Float32Array {
  const out = new Float32Array(length);
  const endHz = spec.endHz ?? spec.startHz;
  const glideBlocks = Math.max(1, Math.round(((spec.glideSeconds ?? length / sampleRate) * sampleRate) / PITCH_BLOCK));
  const glideRatio = (endHz / spec.startHz) ** (1 / glideBlocks);
  const vibratoDepth = (spec.vibratoSemitones ?? 0) / 12;
  const vibratoStep = (spec.vibratoHz ?? 0) / sampleRate;
  const pulseWidth = spec.pulseWidth ?? 0.5;
  const pulseOffset = 2 * pulseWidth - 1;
  const waveform = spec.waveform;
  let hz = spec.startHz;
  let phase = spec.phase ?? 0;
  for (let start = 0, block = 0; start < length; start += PITCH_BLOCK, block++) {
    const end = Math.min(length, start + PITCH_BLOCK);
    const vibrato = vibratoDepth === 0 ? 1 : 2 ** (vibratoDepth * sineCycle(start * vibratoStep));
    const dt = Math.min(0.5, (hz * vibrato) / sampleRate);
    if (waveform === 'sine') {
      for (let i = start; i < end; i++) {
        out[i] = sineCycle(phase);
        phase += dt;
        if (phase >= 1) phase -= 1;
      }
    } else if (waveform === 'triangle') {
      for (let i = start; i < end; i++) {
        out[i] = phase < 0.5 ? 4 * phase - 1 : 3 - 4 * phase;
        phase += dt;
        if (phase >= 1) phase -= 1;
      }
    } else if (waveform === 'saw') {
      for (let i = start; i < end; i++) {
        out[i] = 2 * phase - 1 - polyBlep(phase, dt);
        phase += dt;
        if (phase >= 1) phase -= 1;
      }
    } else {
      for (let i = start; i < end; i++) {
        let falling = phase + 1 - pulseWidth;
        if (falling >= 1) falling -= 1;
        // Minus the pulse's average, so narrow pulses carry no DC offset.
        out[i] = (phase < pulseWidth ? 1 : -1) + polyBlep(phase, dt) - polyBlep(falling, dt) - pulseOffset;
        phase += dt;
        if (phase >= 1) phase -= 1;
      }
    }
    if (block < glideBlocks) hz *= glideRatio;
  }
  return out;
}

export interface FmSpec {
  carrierHz: number;
  /** Modulator frequency as a multiple of the carrier; non-integers sound bell-like. */
  ratio: number;
  /** Modulation index at the start; it decays to `endIndex` with time constant `indexSeconds`. */
  index: number;
  endIndex?: number;
  indexSeconds: number;
}

/** Two-operator FM: electric pianos, bells and chimes for the cost of two table lookups. */
export function renderFm(length: number, sampleRate: number, spec: FmSpec): Float32Array {
  const out = new Float32Array(length);
  const carrierStep = spec.carrierHz / sampleRate;
  const modulatorStep = carrierStep * spec.ratio;
  const endIndex = spec.endIndex ?? 0;
  const indexDecay = Math.exp(-1 / (spec.indexSeconds * sampleRate));
  let excess = spec.index - endIndex;
  let carrier = 0;
  let modulator = 0;
  for (let i = 0; i < length; i++) {
    out[i] = sineCycle(carrier + (endIndex + excess) * sineCycle(modulator) * 0.159);
    excess *= indexDecay;
    carrier += carrierStep;
    modulator += modulatorStep;
    if (carrier >= 1) carrier -= 1;
    if (modulator >= 1) modulator -= 1;
  }
  return out;
}
