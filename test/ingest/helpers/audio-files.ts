/**
 * Test signals and the few file layouts the shared writers (test/audio/helpers) do not make:
 * AIFF-C with IEEE float samples ('fl32', 'fl64') or unsigned bytes ('raw '), and WAVE_FORMAT_EXTENSIBLE with a chosen
 * channel mask.
 */
import { chunk, extended, u32be, writeAiff } from '../../audio/helpers/aiff.ts';
import { ascii, concat, writeWav, type WavSpec } from '../../audio/helpers/wav.ts';
import { dbToAmplitude } from '../../audio/helpers/signals.ts';

/** One second per channel: 1 kHz sines, each channel 2 dB quieter than the one before; a 5.1 file's LFE is 60 Hz. */
export function testChannels(sampleRate: number, channelCount: number, seconds = 1): Float32Array[] {
  const frames = Math.round(sampleRate * seconds);
  return Array.from({ length: channelCount }, (_, c) => {
    const hz = channelCount === 6 && c === 3 ? 60 : 1000;
    const amplitude = dbToAmplitude(-20 - 2 * c);
    return Float32Array.from({ length: frames }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / sampleRate + c));
  });
}

/** FORM/AIFC with big-endian float samples, as Apple's tools and ffmpeg write them. */
export function writeAifcFloat(sampleRate: number, channels: Float32Array[], bits: 32 | 64): Uint8Array {
  const bytesPerSample = bits / 8;
  const frames = channels[0]?.length ?? 0;
  const data = new Uint8Array(frames * channels.length * bytesPerSample);
  const view = new DataView(data.buffer);
  for (let i = 0; i < frames; i++) {
    channels.forEach((channel, c) => {
      const offset = (i * channels.length + c) * bytesPerSample;
      if (bits === 64) view.setFloat64(offset, channel[i]!);
      else view.setFloat32(offset, channel[i]!);
    });
  }
  const comm = new Uint8Array(24);
  const commView = new DataView(comm.buffer);
  commView.setInt16(0, channels.length);
  commView.setUint32(2, frames);
  commView.setInt16(6, bits);
  comm.set(extended(sampleRate), 8);
  comm.set(ascii(bits === 64 ? 'fl64' : 'fl32'), 18); // then an empty name and its pad byte
  const form = concat([ascii('AIFC'), chunk('COMM', comm), chunk('SSND', concat([new Uint8Array(8), data]))]);
  return concat([ascii('FORM'), u32be(form.length), form]);
}

/** WAVE_FORMAT_EXTENSIBLE with the channel mask given (the shared writer sets the first N bits). */
export function writeExtensibleWav(spec: Omit<WavSpec, 'extensible'>, channelMask: number): Uint8Array {
  const wav = writeWav({ ...spec, extensible: true });
  // RIFF(12) + "fmt "(8): the mask sits 20 bytes into the format chunk's body.
  new DataView(wav.buffer, wav.byteOffset, wav.byteLength).setUint32(12 + 8 + 20, channelMask, true);
  return wav;
}

/** AIFF-C 'raw ': 8-bit unsigned samples (offset binary), as old Mac tools wrote them. */
export function writeAifcRaw(sampleRate: number, channels: Float32Array[]): Uint8Array {
  const signed = writeAiff({ sampleRate, channels, bits: 8, compression: 'raw ' });
  const sampleBytes = (channels[0]?.length ?? 0) * channels.length;
  const pad = sampleBytes % 2;
  // The sound data is last: flip each sample's top bit (signed to offset binary).
  for (let i = signed.length - pad - sampleBytes; i < signed.length - pad; i++) signed[i] = signed[i]! ^ 0x80;
  return signed;
}
