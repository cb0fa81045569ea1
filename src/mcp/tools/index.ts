import type { SoundTool } from '../tool.ts';
import { findSimilarSoundsTool } from './find-similar-sounds.ts';
import { getDownloadUrlTool } from './get-download-url.ts';
import { getPackUrlTool } from './get-pack-url.ts';
import { getQuotaTool } from './get-quota.ts';
import { getSoundTool } from './get-sound.ts';
import { getStreamUrlTool } from './get-stream-url.ts';
import { getWaveformTool } from './get-waveform.ts';
import { listPopularTool } from './list-popular.ts';
import { listSamplesTool } from './list-samples.ts';
import { previewSoundTool } from './preview-sound.ts';
import { searchSoundsTool } from './search-sounds.ts';

/** Every tool the MCP server offers, in the order an agent usually needs them. */
export const soundTools: SoundTool[] = [
  searchSoundsTool,
  getSoundTool,
  previewSoundTool,
  getStreamUrlTool,
  getDownloadUrlTool,
  getPackUrlTool,
  listPopularTool,
  listSamplesTool,
  findSimilarSoundsTool,
  getWaveformTool,
  getQuotaTool,
];
