import { demoName } from '../audio/synth/index.ts';
import type { SynthSound } from '../audio/synth/index.ts';
import type { CatalogWriter } from '../catalog/writer.ts';

/**
 * Names for demo sounds, unique in the catalog: a sound takes its title as it is, or with the
 * first number that no sound holds yet ("Rain Ambience Heavy", "Rain Ambience Heavy 2"). The
 * names a title already has are read once per title; after that, claiming is synchronous, so
 * concurrent seeding never hands one name out twice.
 */
export class DemoNames {
  private readonly taken = new Map<string, Promise<Set<string>>>();

  constructor(private readonly writer: Pick<CatalogWriter, 'namesStartingWith'>) {}

  async claim(sound: Pick<SynthSound, 'title' | 'subtitle'>): Promise<string> {
    let loading = this.taken.get(sound.title);
    if (!loading) {
      loading = this.writer.namesStartingWith(sound.title).then((names) => new Set(names));
      this.taken.set(sound.title, loading);
    }
    const names = await loading;
    let n = 1;
    while (names.has(demoName(sound, n))) n++;
    const name = demoName(sound, n);
    names.add(name);
    return name;
  }
}
