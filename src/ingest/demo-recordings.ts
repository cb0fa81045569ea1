import { copyFile, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatMs } from '../audio/synth/naming.ts';
import type { Category } from '../catalog/sound.ts';
import { titleFromFileName } from './metadata.ts';
import { ingestPaths, type IngestResult, type IngestServices, type PipelineOptions } from './pipeline.ts';

/**
 * Real recordings for the demo catalog, beside the synthesized sounds: the samples of Sonic Pi
 * as the npm package `ultrasonic` ships them (an optional dependency: without it, or without
 * the registry, the demo catalog is synthesized only). Its README states that every sample comes
 * from freesound.org under CC0 and links each one's original page. Only samples with such a link
 * are taken, and the link goes into the sound's description.
 */
export const RECORDINGS_PACKAGE = 'ultrasonic';

export interface DemoRecording {
  /** The FLAC file in the package. */
  file: string;
  name: string;
  /** The original page on freesound.org. */
  origin: string;
  category: Category;
  tags: string[];
  /** Whether the sample loops whole, end back to start (Sonic Pi's `loop_` samples). */
  loop: boolean;
}

/** Sample name prefixes (Sonic Pi's families) to what the catalog says about them. */
const FAMILIES: Array<{ prefix: RegExp; category: Category; tags: string[]; loop?: true }> = [
  { prefix: /^ambi_/, category: 'AMBIENT', tags: ['ambience', 'drone'] },
  {
    prefix: /^(bd_|drum_bass_|drum_heavy_kick|elec_(hollow|soft)_kick)/,
    category: 'SFX',
    tags: ['kick', 'drum', 'percussion'],
  },
  {
    prefix: /^(sn_|drum_snare_|elec_(filt_|hi_|lo_|mid_)?snare)/,
    category: 'SFX',
    tags: ['snare', 'drum', 'percussion'],
  },
  { prefix: /^(drum_cymbal_|drum_splash_|elec_cymbal)/, category: 'SFX', tags: ['cymbal', 'drum', 'percussion'] },
  { prefix: /^(drum_tom_|elec_fuzz_tom)/, category: 'SFX', tags: ['tom', 'drum', 'percussion'] },
  { prefix: /^drum_/, category: 'SFX', tags: ['drum', 'percussion'] },
  { prefix: /^loop_/, category: 'MUSIC', tags: ['loop', 'drum', 'beat'], loop: true },
  { prefix: /^tabla_/, category: 'SFX', tags: ['tabla', 'percussion', 'indian'] },
  { prefix: /^perc_/, category: 'SFX', tags: ['percussion'] },
  { prefix: /^guit_/, category: 'MUSIC', tags: ['guitar'] },
  { prefix: /^bass_/, category: 'MUSIC', tags: ['bass'] },
  { prefix: /^vinyl_/, category: 'SFX', tags: ['vinyl', 'scratch'] },
  { prefix: /^elec_/, category: 'SFX', tags: ['electronic', 'synth'] },
  { prefix: /^misc_/, category: 'SFX', tags: ['misc'] },
];

/** Where the package's own names carry a number that is not a take number, the name to use. */
const RENAMED: Readonly<Record<string, string>> = {
  guit_em9: 'Guitar Em9 Chord',
  bd_808: 'Drums Bass 808 Kick',
};

/** The package's folder, or null when it is not installed. */
export function recordingsPackageFolder(): string | null {
  try {
    return path.dirname(createRequire(import.meta.url).resolve(`${RECORDINGS_PACKAGE}/package.json`));
  } catch {
    return null;
  }
}

/**
 * The recordings a package folder offers: its README's links (`* \`:name\` - http://freesound.org/...`)
 * name the samples taken; the display names come from its index.json where it has one.
 */
export async function findDemoRecordings(folder: string | null = recordingsPackageFolder()): Promise<DemoRecording[]> {
  if (folder === null) return [];
  const readme = await readFile(path.join(folder, 'README.md'), 'utf8').catch(() => '');
  const names = await displayNames(folder);
  const recordings: DemoRecording[] = [];
  for (const match of readme.matchAll(/^\* `:([a-z0-9_]+)`\s+-\s+(https?:\/\/(?:www\.)?freesound\.org\/[^\s<>]+)/gm)) {
    const [, sample, origin] = match as unknown as [string, string, string];
    const family = FAMILIES.find(({ prefix }) => prefix.test(sample));
    const file = path.join(folder, `${sample}.flac`);
    recordings.push({
      file,
      name: await recordingName(file, RENAMED[sample] ?? names.get(sample) ?? titleFromFileName(sample)),
      origin: origin.replace(/^http:/, 'https:'),
      category: family?.category ?? 'SFX',
      tags: [...(family?.tags ?? []), 'recorded', 'sonic-pi'],
      loop: family?.loop === true,
    });
  }
  return recordings;
}

/**
 * The package numbers the takes of one stroke ("Tabla Ghe #3"); a catalog name says instead what
 * tells the take apart, its length, read from the file ("Tabla Ghe, 2.39 Seconds").
 */
async function recordingName(file: string, name: string): Promise<string> {
  const take = /\s*#\d+$/.exec(name);
  if (!take) return name;
  const seconds = await flacSeconds(file);
  const base = name.slice(0, take.index).replace(/\s+/g, ' ');
  if (seconds === null) return base;
  return `${base}, ${seconds < 1 ? formatMs(seconds) : `${Number(seconds.toFixed(2))} Seconds`}`;
}

/** A FLAC file's length from its STREAMINFO block (sample rate and total samples), or null. */
async function flacSeconds(file: string): Promise<number | null> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(42), 0, 42, 0);
    if (bytesRead < 42 || buffer.toString('latin1', 0, 4) !== 'fLaC') return null;
    const info = buffer.subarray(8);
    const sampleRate = (info[10]! << 12) | (info[11]! << 4) | (info[12]! >> 4);
    const samples = (info[13]! & 0x0f) * 2 ** 32 + info.readUInt32BE(14);
    return sampleRate > 0 && samples > 0 ? samples / sampleRate : null;
  } finally {
    await handle.close();
  }
}

async function displayNames(folder: string): Promise<Map<string, string>> {
  try {
    const index = JSON.parse(await readFile(path.join(folder, 'index.json'), 'utf8')) as {
      data?: Array<{ name?: unknown; file?: unknown }>;
    };
    return new Map(
      (index.data ?? []).flatMap((entry) =>
        typeof entry.name === 'string' && typeof entry.file === 'string'
          ? [[path.basename(entry.file, '.flac'), entry.name] as [string, string]]
          : [],
      ),
    );
  } catch {
    return new Map();
  }
}

/**
 * Ingests recordings through the ordinary pipeline: each file is copied beside a sidecar that
 * gives its name, its origin and CC0 (and for a loop, that it loops whole), in a folder of its own outside the data folder (the
 * package's folder is not ours to write in). Copies are removed afterwards.
 */
export async function ingestDemoRecordings(
  services: IngestServices,
  recordings: DemoRecording[],
  options: PipelineOptions = {},
): Promise<IngestResult> {
  const folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-recordings-'));
  try {
    for (const recording of recordings) {
      const base = path.join(folder, path.basename(recording.file, '.flac'));
      await copyFile(recording.file, `${base}.flac`);
      await writeFile(
        `${base}.json`,
        JSON.stringify({
          name: recording.name,
          description:
            `A recording from Sonic Pi's sample library (${path.basename(recording.file)}), CC0, ` +
            `originally from Freesound: ${recording.origin}`,
          tags: recording.tags,
          category: recording.category,
          license: 'CC0',
          ...(recording.loop && { loop: true }),
        }),
      );
    }
    return await ingestPaths(services, [folder], options);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
