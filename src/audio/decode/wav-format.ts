import { DecodeError } from './decode-error.ts';

/** How a WAV file's samples are stored, from its format chunk. */
export interface WavFormat {
  encoding: 'pcm' | 'float';
  /** Bytes one sample of one channel occupies (the container, e.g. 3 for 20-bit audio in 24-bit slots). */
  bytesPerSample: number;
  channelCount: number;
  sampleRate: number;
}

const PCM = 0x0001;
const IEEE_FLOAT = 0x0003;
const EXTENSIBLE = 0xfffe;
const MAX_CHANNELS = 256;
const MAX_SAMPLE_RATE = 1_536_000;
const ENCODING_NAMES: Record<number, string> = {
  2: 'Microsoft ADPCM',
  6: 'A-law',
  7: 'µ-law',
  17: 'IMA ADPCM',
  49: 'GSM 6.10',
  80: 'MPEG',
  85: 'MP3',
  353: 'WMA',
};

export function readWavFormat(body: Uint8Array): WavFormat {
  if (body.length < 16) throw new DecodeError('truncated WAV format chunk');
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  let formatTag = view.getUint16(0, true);
  const channelCount = view.getUint16(2, true);
  const sampleRate = view.getUint32(4, true);
  const blockAlign = view.getUint16(12, true);
  const bitsPerSample = view.getUint16(14, true);
  if (formatTag === EXTENSIBLE) {
    // The real format is the first two bytes of the sub-format GUID.
    if (body.length < 40) throw new DecodeError('truncated WAV format chunk');
    formatTag = view.getUint16(24, true);
  }
  if (channelCount === 0) throw new DecodeError('WAV has zero channels');
  if (channelCount > MAX_CHANNELS) throw new DecodeError(`unsupported WAV: ${channelCount} channels`);
  if (sampleRate === 0) throw new DecodeError('WAV has a zero sample rate');
  if (sampleRate > MAX_SAMPLE_RATE) throw new DecodeError(`unsupported WAV sample rate: ${sampleRate} Hz`);
  if (formatTag !== PCM && formatTag !== IEEE_FLOAT) {
    const name = ENCODING_NAMES[formatTag] ?? 'format';
    throw new DecodeError(`unsupported WAV encoding: ${name} (0x${formatTag.toString(16).padStart(4, '0')})`);
  }
  // Trust the block size when it names a supported container that holds the bit depth (it tells
  // where 20-bit audio sits); otherwise round the bit depth up to whole bytes.
  const encoding = formatTag === PCM ? 'pcm' : 'float';
  const supported = encoding === 'pcm' ? [1, 2, 3, 4] : [4, 8];
  const fromBlock = blockAlign % channelCount === 0 ? blockAlign / channelCount : 0;
  const fromBits = Math.ceil(bitsPerSample / 8);
  const bytesPerSample = supported.includes(fromBlock) && fromBlock >= fromBits ? fromBlock : fromBits;
  if (!supported.includes(bytesPerSample)) {
    throw new DecodeError(`unsupported WAV encoding: ${bitsPerSample}-bit ${encoding === 'pcm' ? 'PCM' : 'float'}`);
  }
  return { encoding, bytesPerSample, channelCount, sampleRate };
}
