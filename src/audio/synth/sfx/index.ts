import type { SoundGenerator } from '../sound.ts';
import { generateAlarm } from './alarm.ts';
import { generateCoin } from './coin.ts';
import { generateDoorCreak } from './door-creak.ts';
import { generateDoor } from './door.ts';
import { generateExplosion } from './explosion.ts';
import { generateFootsteps } from './footsteps.ts';
import { generateImpact } from './impact.ts';
import { generateLaser } from './laser.ts';
import { generateMetalHit } from './metal.ts';
import { generateNotification } from './notification.ts';
import { generatePowerUp } from './powerup.ts';
import { generateBeep, generateBlip, generateClick } from './ui.ts';
import { generateWhoosh } from './whoosh.ts';

/** Which effects a catalog holds and how often, as data. Lasers are common: agents ask for them. */
const SFX_KINDS: readonly (readonly [SoundGenerator, number])[] = [
  [generateLaser, 11],
  [generateWhoosh, 9],
  [generateImpact, 8],
  [generateCoin, 8],
  [generateClick, 7],
  [generateBeep, 6],
  [generateBlip, 5],
  [generateNotification, 7],
  [generateExplosion, 7],
  [generateFootsteps, 7],
  [generatePowerUp, 6],
  [generateAlarm, 5],
  [generateDoorCreak, 4],
  [generateDoor, 5],
  [generateMetalHit, 5],
];

export const generateSfx: SoundGenerator = (context) => context.rng.weighted(SFX_KINDS)(context);
