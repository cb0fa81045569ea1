import type { StoredSound } from '../../catalog/sound.ts';
import { notFound } from '../../errors.ts';
import type { ApiServices } from '../../services.ts';

/** The sound behind an id, or the same "not found" message REST answers with its 404. */
export async function requireSound(services: ApiServices, id: string): Promise<StoredSound> {
  const sound = await services.catalog.findById(id);
  if (!sound) throw notFound(`Sound ${id} not found`);
  return sound;
}
