import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { CATEGORIES, type Category } from '../catalog/sound.ts';
import type { SoundMetadata } from '../catalog/writer.ts';
import { ucsFromFileName, type FoundFields, type MetadataSource, type SourcedFields } from './tags/fields.ts';
import { readEmbeddedTags } from './tags/read-tags.ts';
import type { FoundLoop } from './tags/loop-tags.ts';

export type { MetadataSource } from './tags/fields.ts';

/** The optional `NAME.json` beside `NAME.EXT` (operator contract, "What ingest reads"). */
const sidecarSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(2000).nullable().optional(),
  tags: z.union([z.array(z.string().max(100)).max(100), z.string().max(2000)]).optional(),
  category: z
    .string()
    .transform((value, context) => {
      const category = value.trim().toUpperCase();
      if ((CATEGORIES as readonly string[]).includes(category)) return category as Category;
      context.addIssue({ code: 'custom', message: `unknown category "${value}" (use ${CATEGORIES.join(', ')})` });
      return z.NEVER;
    })
    .nullable()
    .optional(),
  license: z.string().trim().min(1).max(100).optional(),
  sample: z.boolean().optional(),
  /** true: the whole sound loops, first frame to last; false: no loop, whatever the file's tags say. */
  loop: z.boolean().optional(),
});

export class MetadataError extends Error {}

/** Which source gave each field of a sound's metadata; `loop` only when a source gave one. */
export type MetadataSources = Record<Exclude<keyof SoundMetadata, 'loop'>, MetadataSource> & {
  loop?: MetadataSource;
};

export interface ResolvedMetadata {
  /** Without its loop: the loop is checked against the audio once it is decoded (ingest/loop.ts). */
  metadata: SoundMetadata;
  sources: MetadataSources;
  /** Tags in the file that were damaged or too large and were ignored. */
  notes: string[];
  /** The loop asked for: the sidecar's `loop: true` (the whole sound), else the file's loop points. */
  loop: FoundLoop | null;
}

/**
 * The metadata of one audio file, key by key from the first source that gives the key: the
 * sidecar `NAME.json`, then the tags inside the file, then a UCS file name, then defaults (the
 * name made from the file name). A sidecar that is not valid is an error; a damaged tag is a note.
 */
export async function readMetadata(audioPath: string): Promise<ResolvedMetadata> {
  const sidecar = await readSidecar(audioPath);
  const embedded = await readEmbeddedTags(audioPath);
  const ucs = ucsFromFileName(audioPath);
  const found: SourcedFields[] = [...embedded.found, ...(ucs ? [{ source: 'ucs' as const, fields: ucs }] : [])];
  const pick = <K extends keyof FoundFields>(
    key: K,
  ): { value: NonNullable<FoundFields[K]>; source: MetadataSource } | undefined => {
    const hit = found.find(({ fields }) => fields[key] !== undefined);
    return hit && { value: hit.fields[key]!, source: hit.source };
  };
  const name =
    sidecar.name !== undefined
      ? { value: sidecar.name, source: 'sidecar' as const }
      : (pick('name') ?? { value: titleFromFileName(audioPath), source: 'file name' as const });
  const description =
    sidecar.description !== undefined
      ? { value: sidecar.description, source: 'sidecar' as const }
      : (pick('description') ?? { value: null, source: 'default' as const });
  const sidecarTags = typeof sidecar.tags === 'string' ? sidecar.tags.split(',') : sidecar.tags;
  const tags =
    sidecarTags !== undefined
      ? {
          value: sidecarTags.map((tag) => tag.trim().toLowerCase()).filter((tag) => tag.length > 0),
          source: 'sidecar' as const,
        }
      : (pick('tags') ?? { value: [], source: 'default' as const });
  const loop: FoundLoop | null =
    sidecar.loop === undefined
      ? (embedded.loop ?? null)
      : sidecar.loop
        ? { start: 0, end: null, source: 'sidecar' }
        : null;
  const loopSource = sidecar.loop !== undefined ? 'sidecar' : embedded.loop?.source;
  const category =
    sidecar.category !== undefined
      ? { value: sidecar.category, source: 'sidecar' as const }
      : (pick('category') ?? { value: null, source: 'default' as const });
  return {
    metadata: {
      name: name.value,
      description: description.value,
      tags: tags.value,
      category: category.value,
      license: sidecar.license ?? 'CC0',
      sample: sidecar.sample ?? false,
    },
    sources: {
      name: name.source,
      description: description.source,
      tags: tags.source,
      category: category.source,
      license: sidecar.license !== undefined ? 'sidecar' : 'default',
      sample: sidecar.sample !== undefined ? 'sidecar' : 'default',
      ...(loopSource && { loop: loopSource }),
    },
    notes: embedded.notes,
    loop,
  };
}

async function readSidecar(audioPath: string): Promise<z.output<typeof sidecarSchema>> {
  const sidecar = `${audioPath.slice(0, audioPath.length - path.extname(audioPath).length)}.json`;
  let text: string | null = null;
  try {
    text = await readFile(sidecar, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new MetadataError(`cannot read ${path.basename(sidecar)}: ${(error as Error).message}`);
  }
  let raw: unknown = {};
  if (text !== null) {
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new MetadataError(`${path.basename(sidecar)} is not valid JSON: ${(error as Error).message}`);
    }
  }
  const parsed = sidecarSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? `"${issue.path.join('.')}": ` : '';
    throw new MetadataError(`${path.basename(sidecar)}: ${where}${issue.message}`);
  }
  return parsed.data;
}

/** "glass_break-small_02.wav" → "Glass Break Small 02". */
export function titleFromFileName(filePath: string): string {
  const base = path.basename(filePath, path.extname(filePath));
  const words = base
    .replace(/[_\-.]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .split(/\s+/);
  const title = words
    .filter((word) => word.length > 0)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
  return title || 'Untitled';
}
