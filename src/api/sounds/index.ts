import type { Endpoint } from '../endpoint.ts';
import { downloadSound, getSound, streamSound } from './by-id.ts';
import { listSamples } from './list-samples.ts';
import { listPopular } from './popular.ts';
import { streamSample } from './sample-stream.ts';
import { searchSounds } from './search.ts';

/** The seven endpoints of API v1, in the order of the API document. */
export const soundEndpoints: Endpoint[] = [listSamples, streamSample, searchSounds, listPopular, getSound, streamSound, downloadSound];
