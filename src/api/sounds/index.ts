import type { Endpoint } from '../endpoint.ts';
import { downloadSound, getSound, streamSound } from './by-id.ts';
import { listChanges } from './changes.ts';
import { listSamples } from './list-samples.ts';
import { getPack } from './packs.ts';
import { getSpectrogramPng, getWaveformPng } from './pictures.ts';
import { listPopular } from './popular.ts';
import { streamSample } from './sample-stream.ts';
import { searchSounds } from './search.ts';
import { findSimilar } from './similar.ts';
import { getWaveform } from './waveform.ts';

/** The seven endpoints of API v1 in the order of the API document, then the extensions (tag `extensions`). */
export const soundEndpoints: Endpoint[] = [
  listSamples,
  streamSample,
  searchSounds,
  listPopular,
  getSound,
  streamSound,
  downloadSound,
  findSimilar,
  getWaveform,
  listChanges,
  getPack,
  getWaveformPng,
  getSpectrogramPng,
];
