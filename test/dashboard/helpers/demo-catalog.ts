import type { Category } from '../../../src/catalog/sound.ts';
import type { Services } from '../../../src/services.ts';
import { addSound } from '../../helpers/sounds.ts';

type Shape = 'impact' | 'loop' | 'swell' | 'click';

interface DemoSound {
  name: string;
  description: string;
  category: Category;
  tags: string[];
  duration: number;
  sample: boolean;
  shape: Shape;
}

const SOUNDS: DemoSound[] = [
  {
    name: 'Glass Break Small',
    description: 'A small window pane shatters',
    category: 'SFX',
    tags: ['glass', 'break', 'impact'],
    duration: 1.4,
    sample: true,
    shape: 'impact',
  },
  {
    name: 'Door Knock Wood',
    description: 'Three knocks on a wooden door',
    category: 'SFX',
    tags: ['door', 'knock'],
    duration: 1.1,
    sample: true,
    shape: 'impact',
  },
  {
    name: 'Rain on Roof',
    description: 'Steady rain on a tin roof',
    category: 'AMBIENT',
    tags: ['rain', 'loop', 'weather'],
    duration: 42,
    sample: true,
    shape: 'loop',
  },
  {
    name: 'Lofi Study Beat',
    description: 'Dusty drums and warm keys',
    category: 'LOFI',
    tags: ['beat', 'loop', 'chill'],
    duration: 96,
    sample: false,
    shape: 'loop',
  },
  {
    name: 'Synth Rise',
    description: 'A bright synth swell for transitions',
    category: 'MUSIC',
    tags: ['synth', 'rise', 'transition'],
    duration: 6.5,
    sample: false,
    shape: 'swell',
  },
  {
    name: 'UI Click',
    description: 'A very short interface click',
    category: 'SFX',
    tags: ['click', 'ui'],
    duration: 0.05,
    sample: false,
    shape: 'click',
  },
  {
    name: 'Forest Morning',
    description: 'Birds and a light breeze',
    category: 'AMBIENT',
    tags: ['birds', 'forest', 'loop'],
    duration: 60,
    sample: false,
    shape: 'loop',
  },
  {
    name: 'Metal Impact Heavy',
    description: 'A heavy steel hit with a long ring',
    category: 'SFX',
    tags: ['metal', 'impact'],
    duration: 3.2,
    sample: false,
    shape: 'impact',
  },
];

/** Peak pairs that look like the sound's kind; a click keeps the single pair of a 50 ms sound. */
function peaks(shape: Shape, seed: number): Array<[number, number]> {
  if (shape === 'click') return [[-0.7, 0.8]];
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: 160 }, (_, i) => {
    const t = i / 159;
    const envelope =
      shape === 'impact'
        ? Math.exp(-t * 6) * Math.min(1, t * 40)
        : shape === 'swell'
          ? t ** 1.6 * (1 - t ** 12)
          : 0.45 + 0.25 * Math.sin(t * Math.PI * 12) ** 2;
    const level = envelope * (0.6 + 0.4 * random());
    return [-level * (0.85 + 0.15 * random()), level];
  });
}

/** A small catalog that looks like the real one on screenshots: varied kinds, samples, waveforms. */
export async function addDemoCatalog(services: Services): Promise<void> {
  for (const [index, sound] of SOUNDS.entries()) {
    const { id } = await addSound(services, { ...sound, duration: sound.duration });
    await services.database.db
      .updateTable('sounds')
      .set({ waveform: JSON.stringify(peaks(sound.shape, index + 7)) })
      .where('id', '=', id)
      .execute();
  }
}

/** Daily request counts for the days before today, as the quota counters would hold them. */
export async function addUsageHistory(services: Services, accountId: string, now: number): Promise<void> {
  const rows = Array.from({ length: 29 }, (_, i) => {
    const back = 29 - i;
    const weekday = new Date(now - back * 86_400_000).getUTCDay();
    const base = weekday === 0 || weekday === 6 ? 180 : 620;
    return {
      account_id: accountId,
      day: new Date(now - back * 86_400_000).toISOString().slice(0, 10),
      count: Math.round(base + 90 * Math.sin(i * 1.7) + i * 12),
    };
  });
  await services.database.db.insertInto('usage_daily').values(rows).execute();
}
