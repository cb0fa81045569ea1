import { demoName } from '../audio/synth/index.ts';
import type { SynthSound } from '../audio/synth/index.ts';
import type { CatalogWriter } from '../catalog/writer.ts';

export type NameableSound = Pick<SynthSound, 'key' | 'title' | 'details' | 'refinements' | 'subtitle'>;

/**
 * Names for demo sounds, unique in the catalog and never numbered. A sound takes its name as it
 * is (demoName: what it is and how it sounds); where the catalog already holds that name (a sound
 * of another seed, or one ingested under it), it adds its finer facts one at a time until the name
 * is free ("Thud, Heavy Dry, 78 Hz Body, 288 ms Decay, 640 Hz Contact"). The names a title already
 * has are read once per title; after that, claiming is synchronous, so concurrent seeding never
 * hands one name out twice.
 */
export class DemoNames {
  private readonly taken = new Map<string, Promise<Set<string>>>();

  constructor(private readonly writer: Pick<CatalogWriter, 'namesStartingWith'>) {}

  async claim(sound: NameableSound): Promise<string> {
    let loading = this.taken.get(sound.title);
    if (!loading) {
      loading = this.writer.namesStartingWith(sound.title).then((names) => new Set(names));
      this.taken.set(sound.title, loading);
    }
    const names = await loading;
    const options = candidates(sound);
    const name = options.find((candidate) => !names.has(candidate)) ?? options[options.length - 1]!;
    names.add(name);
    return name;
  }
}

/**
 * The names a sound may take, shortest first. The last one, for when every fact is spent (two
 * sounds alike to the hertz and millisecond, or a sound named by hand to match), adds the sound's
 * key, which no other demo sound has.
 */
function candidates(sound: NameableSound): string[] {
  const names = Array.from({ length: sound.refinements.length + 1 }, (_, refined) => demoName(sound, refined));
  const fullest = [sound.title, ...sound.details, ...sound.refinements].join(', ');
  names.push(`${fullest} (${sound.key})${sound.subtitle ? ` - ${sound.subtitle}` : ''}`);
  return names;
}
