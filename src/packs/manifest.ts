import type { Category, Timing } from '../catalog/sound.ts';

/** LICENSE.txt of every pack: what CC0 1.0 lets anyone do with the sounds. */
export const LICENSE_TEXT = `Every sound in this pack is dedicated to the public domain under the
Creative Commons CC0 1.0 Universal Public Domain Dedication (CC0 1.0).

You may copy, modify, distribute and use the sounds, including for commercial purposes,
without asking permission and without giving attribution.

The full legal text: https://creativecommons.org/publicdomain/zero/1.0/legalcode
`;

/**
 * One file of a pack as manifest.json and manifest.csv describe it: what was delivered, measured on
 * the delivered file where it can be.
 */
export interface ManifestRow {
  id: string;
  name: string;
  file: string;
  format: string;
  /** Hz, read from the delivered file's header; null when it cannot be read. */
  sample_rate: number | null;
  channels: number | null;
  /** Seconds. */
  duration: number;
  integrated_lufs: number | null;
  true_peak_db: number | null;
  timing: Timing;
  category: Category | null;
  tags: string[];
  /** Of the file's bytes exactly as they are in the ZIP. */
  sha256: string;
  bytes: number;
  /** The page the sound came from; the catalog records none yet, so null. */
  source_url: string | null;
}

export interface Manifest {
  license: 'CC0-1.0';
  created_at: string;
  sounds: ManifestRow[];
}

export function manifestJson(rows: ManifestRow[], createdAt: Date): string {
  const manifest: Manifest = { license: 'CC0-1.0', created_at: createdAt.toISOString(), sounds: rows };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

const CSV_COLUMNS = [
  'id',
  'name',
  'file',
  'format',
  'sample_rate',
  'channels',
  'duration',
  'integrated_lufs',
  'true_peak_db',
  'onset_ms',
  'peak_ms',
  'tail_ms',
  'category',
  'tags',
  'sha256',
  'bytes',
  'source_url',
] as const;

/**
 * The same rows as CSV (RFC 4180: CRLF lines, fields quoted when they hold a comma, quote or line
 * break). Tags are one field, comma-separated. Written here: the rule is three lines, and no CSV
 * writer is among the dependencies.
 */
export function manifestCsv(rows: ManifestRow[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of rows) {
    const values: Record<(typeof CSV_COLUMNS)[number], unknown> = {
      ...row,
      onset_ms: row.timing.onset_ms,
      peak_ms: row.timing.peak_ms,
      tail_ms: row.timing.tail_ms,
      tags: row.tags.join(','),
    };
    lines.push(CSV_COLUMNS.map((column) => csvField(values[column])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** `<name-slug>-<id>.<ext>`: readable, and unique in the pack by its id. */
export function packFileName(name: string, id: string, extension: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 60)
    .replace(/-+$/, '');
  const safeId = id.replace(/[^\w-]/g, '_');
  return `${slug === '' ? 'sound' : slug}-${safeId}.${extension}`;
}
