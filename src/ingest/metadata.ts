import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { CATEGORIES, type Category } from '../catalog/sound.ts';
import type { SoundMetadata } from '../catalog/writer.ts';

/** The optional `NAME.json` beside `NAME.EXT` (operator contract, "What ingest reads"). */
const sidecarSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(2000).nullable().optional(),
  tags: z.union([z.array(z.string().max(100)).max(100), z.string().max(2000)]).optional(),
  category: z.string().transform((value, context) => {
    const category = value.trim().toUpperCase();
    if ((CATEGORIES as readonly string[]).includes(category)) return category as Category;
    context.addIssue({ code: 'custom', message: `unknown category "${value}" (use ${CATEGORIES.join(', ')})` });
    return z.NEVER;
  }).nullable().optional(),
  license: z.string().trim().min(1).max(100).optional(),
  sample: z.boolean().optional(),
});

export class MetadataError extends Error {}

/** Reads the metadata of one audio file, with defaults for every missing key. */
export async function readMetadata(audioPath: string): Promise<SoundMetadata> {
  const sidecar = audioPath.slice(0, audioPath.length - path.extname(audioPath).length) + '.json';
  let text: string | null = null;
  try {
    text = await readFile(sidecar, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new MetadataError(`cannot read ${path.basename(sidecar)}: ${(error as Error).message}`);
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
  const meta = parsed.data;
  const tags = typeof meta.tags === 'string' ? meta.tags.split(',') : (meta.tags ?? []);
  return {
    name: meta.name ?? titleFromFileName(audioPath),
    description: meta.description ?? null,
    tags: tags.map((tag) => tag.trim().toLowerCase()).filter((tag) => tag.length > 0),
    category: meta.category ?? null,
    license: meta.license ?? 'CC0',
    sample: meta.sample ?? false,
  };
}

/** "glass_break-small_02.wav" → "Glass Break Small 02". */
export function titleFromFileName(filePath: string): string {
  const base = path.basename(filePath, path.extname(filePath));
  const words = base.replace(/[_\-.]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim().split(/\s+/);
  const title = words.filter((word) => word.length > 0).map((word) => word[0]!.toUpperCase() + word.slice(1)).join(' ');
  return title || 'Untitled';
}
