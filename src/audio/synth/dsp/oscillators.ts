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

/** Vibrato is recomputed every block: Math.pow per sample would dominate the cost. */
const VIBRATO_BLOCK = 32;

export function renderTone(length: number, sampleRate: number, spec: ToneSpec): Float32Array {
  const out = new Float32Array(length);
  const endHz = spec.endHz ?? spec.startHz;
  const glideSamples = Math.max(1, Math.round((spec.glideSeconds ?? length / sampleRate) * sampleRate));
  const glideRatio = Math.pow(endHz / spec.startHz, 1 / glideSamples);
  const vibratoDepth = (spec.vibratoSemitones ?? 0) / 12;
  const vibratoStep = (spec.vibratoHz ?? 0) / sampleRate;
  const pulseWidth = spec.pulseWidth ?? 0.5;
  const pulseOffset = 2 * pulseWidth - 1;
  let hz = spec.startHz;
  let phase = spec.phase ?? 0;
  let vibrato = 1;
  for (let i = 0; i < length; i++) {
    if (vibratoDepth !== 0 && i % VIBRATO_BLOCK === 0) {
      vibrato = Math.pow(2, vibratoDepth * sineCycle(i * vibratoStep));
    }
    const dt = Math.min(0.5, (hz * vibrato) / sampleRate);
    let value: number;
    switch (spec.waveform) {
      case 'sine':
        value = sineCycle(phase);
        break;
      case 'triangle':
        value = phase < 0.5 ? 4 * phase - 1 : 3 - 4 * phase;
        break;
      case 'saw':
        value = 2 * phase - 1 - polyBlep(phase, dt);
        break;
      case 'square': {
        const shifted = phase + 1 - pulseWidth;
        // Minus the pulse's average, so narrow pulses carry no DC offset.
        value = (phase < pulseWidth ? 1 : -1) + polyBlep(phase, dt) - polyBlep(shifted - Math.floor(shifted), dt) - pulseOffset;
        break;
      }
    }
    out[i] = value;
    phase += dt;
    if (phase >= 1) phase -= 1;
    if (i < glideSamples) hz *= glideRatio;
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
