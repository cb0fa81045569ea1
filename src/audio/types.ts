/**
 * The one in-memory form of audio shared by decoders, analysis, encoding and synthesis:
 * planar 32-bit float, one array per channel, samples nominally in [-1, 1].
 * Channel order follows WAV/SMPTE: L, R, C, LFE, Ls, Rs (5.0 without LFE: L, R, C, Ls, Rs).
 */
export interface PcmAudio {
  sampleRate: number;
  channels: Float32Array[];
}

/** Gapless information read from an MP3's LAME/Info tag (encoder delay and padding, in samples). */
export interface GaplessInfo {
  delay: number;
  padding: number;
}

export interface Timing {
  onset_ms: number | null;
  peak_ms: number | null;
  tail_ms: number | null;
}

export interface Loudness {
  integrated_lufs: number | null;
  true_peak_db: number | null;
}

/** Everything the catalog stores about a sound's audio, measured on the delivered MP3. */
export interface AudioMeasurements {
  /** Seconds of trimmed audio. */
  duration: number;
  timing: Timing;
  loudness: Loudness;
  /** A fixed number of [min, max] sample pairs across the sound, for drawing a waveform. */
  waveform: Array<[number, number]>;
  /**
   * How the sound sounds, as DESCRIPTOR_LENGTH numbers (analyze/descriptors.ts), for similar
   * sounds; null for a sound stored before they were measured (`sound-catalog analyze --missing`).
   */
  descriptors: number[] | null;
}
