import type { SoundGenerator } from '../sound.ts';
import { generateCampfire } from './campfire.ts';
import { generateCrickets } from './crickets.ts';
import { generateHum } from './hum.ts';
import { generateRain } from './rain.ts';
import { generateRoomTone } from './room-tone.ts';
import { generateWaves } from './waves.ts';
import { generateWind } from './wind.ts';

/** Which ambiences a catalog holds and how often. */
const AMBIENT_KINDS: readonly (readonly [SoundGenerator, number])[] = [
  [generateRain, 5],
  [generateWind, 4],
  [generateWaves, 4],
  [generateCampfire, 3],
  [generateCrickets, 2],
  [generateRoomTone, 2],
  [generateHum, 2],
];

export const generateAmbient: SoundGenerator = (context) => context.rng.weighted(AMBIENT_KINDS)(context);
