import { lstat, open, readdir, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { looksLikeAudio, UNDECODED_AUDIO_EXTENSIONS } from '../audio/decode/sniff.ts';

/** Extensions of the formats ingest decodes (.bwf and .rf64 are WAV). */
const AUDIO_EXTENSIONS = new Set([
  '.mp3',
  '.wav',
  '.wave',
  '.bwf',
  '.rf64',
  '.flac',
  '.ogg',
  '.oga',
  '.aif',
  '.aiff',
  '.aifc',
]);
const SIDECAR_ALONE = 'not audio (.json: a sidecar is read only with an audio file of the same name)';
/** Bytes read from a file with another extension to see whether it is audio all the same. */
const MAGIC_BYTES = 32;

export interface WalkResult {
  /** Files to ingest, in the order given, each folder's in name order. */
  files: string[];
  /** Paths that do not exist or cannot be read, with the reason: reported in `failed`. */
  missing: Array<{ file: string; reason: string }>;
  /** Files (and hidden folders) that are clearly not audio, with the reason: reported in `skipped`. */
  skipped: Array<{ file: string; reason: string }>;
}

/**
 * Expands files and folders (walked recursively) into the audio files to ingest, and accounts for
 * every other file found, so nothing is left out silently:
 * - audio extensions, and those of audio formats we cannot decode (named in `failed` later), are tried;
 * - a file with another extension is tried when its first bytes are an audio header, else skipped;
 * - NAME.json beside a file that is tried is its metadata sidecar, read with it, and not listed;
 * - in folders, hidden files and folders (.DS_Store, ._NAME AppleDouble files, .git) are skipped,
 *   as are links to folders (not followed: no loops) and what is not a regular file (a pipe would
 *   block a read forever); a broken link or an unreadable file or folder is in `missing`.
 */
export async function findAudioFiles(paths: string[]): Promise<WalkResult> {
  const result: WalkResult = { files: [], missing: [], skipped: [] };
  const candidates: Array<{ file: string; info: Stats }> = [];
  for (const given of paths) {
    const resolved = path.resolve(given);
    let info: Stats;
    try {
      info = await stat(resolved);
    } catch (error) {
      result.missing.push({ file: given, reason: errorReason(error) });
      continue;
    }
    if (info.isDirectory()) candidates.push(...(await walkFolder(resolved, result)));
    else candidates.push({ file: resolved, info });
  }
  const sidecarCandidates: string[] = [];
  for (const { file, info } of candidates) {
    if (!info.isFile()) {
      result.skipped.push({ file, reason: 'not a regular file' });
      continue;
    }
    const extension = path.extname(file).toLowerCase();
    // Formats we cannot decode are tried too, so that `failed` names the format.
    if (AUDIO_EXTENSIONS.has(extension) || UNDECODED_AUDIO_EXTENSIONS.has(extension.slice(1))) result.files.push(file);
    // Exactly `.json`: that is the name the metadata reader looks for beside NAME.EXT.
    else if (path.extname(file) === '.json') sidecarCandidates.push(file);
    else await sortByContent(file, path.extname(file), result);
  }
  result.files = [...new Set(result.files)];
  const stems = new Set(result.files.map(stemOf));
  for (const file of new Set(sidecarCandidates)) {
    if (!stems.has(stemOf(file))) result.skipped.push({ file, reason: SIDECAR_ALONE });
  }
  result.skipped = dedupe(result.skipped);
  return result;
}

/**
 * Every entry under a folder, in path order; hidden entries, links to folders and unreadable
 * folders are accounted for in `result`.
 */
async function walkFolder(folder: string, result: WalkResult): Promise<Array<{ file: string; info: Stats }>> {
  const found: Array<{ file: string; info: Stats }> = [];
  const visit = async (current: string) => {
    let names: string[];
    try {
      names = await readdir(current);
    } catch (error) {
      result.missing.push({ file: current, reason: `cannot read folder: ${errorReason(error)}` });
      return;
    }
    for (const name of names.sort()) {
      const entry = path.join(current, name);
      let info: Stats;
      let isLink = false;
      try {
        info = await lstat(entry);
        isLink = info.isSymbolicLink();
        if (isLink) {
          if (name.startsWith('.')) {
            result.skipped.push({ file: entry, reason: 'hidden file' });
            continue;
          }
          info = await stat(entry);
          if (info.isDirectory()) {
            result.skipped.push({ file: entry, reason: 'link to a folder (not followed)' });
            continue;
          }
        }
      } catch (error) {
        result.missing.push({
          file: entry,
          reason: isLink ? `broken link: ${errorReason(error)}` : errorReason(error),
        });
        continue;
      }
      if (name.startsWith('.'))
        result.skipped.push({
          file: entry,
          reason: info.isDirectory() ? 'hidden folder (not searched)' : 'hidden file',
        });
      else if (info.isDirectory()) await visit(entry);
      else found.push({ file: entry, info });
    }
  };
  await visit(folder);
  // Whole paths in order, as before: a run's order decides which of two equal files is kept last.
  return found.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** A file with an extension that is not audio's: tried when its header says audio, else skipped. */
async function sortByContent(file: string, extension: string, result: WalkResult): Promise<void> {
  let head: Uint8Array;
  try {
    const handle = await open(file, 'r');
    try {
      const buffer = new Uint8Array(MAGIC_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, MAGIC_BYTES, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    result.missing.push({ file, reason: `cannot read: ${errorReason(error)}` });
    return;
  }
  if (looksLikeAudio(head)) result.files.push(file);
  else
    result.skipped.push({
      file,
      reason: `not audio (${extension === '' ? 'no extension' : extension}, and no audio header)`,
    });
}

function stemOf(file: string): string {
  return file.slice(0, file.length - path.extname(file).length);
}

function dedupe(entries: Array<{ file: string; reason: string }>): Array<{ file: string; reason: string }> {
  const seen = new Set<string>();
  return entries.filter(({ file }) => !seen.has(file) && seen.add(file));
}

function errorReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'ELOOP') return 'too many levels of links';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (error as Error).message;
}
