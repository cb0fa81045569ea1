import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

const AUDIO_EXTENSIONS = new Set(['.mp3', '.wav', '.wave', '.flac', '.ogg', '.oga', '.aif', '.aiff', '.aifc']);

export interface WalkResult {
  files: string[];
  /** Paths given that do not exist or cannot be read, with the reason. */
  missing: Array<{ file: string; reason: string }>;
}

/** Expands files and folders (walked recursively, in name order) into the audio files to ingest. */
export async function findAudioFiles(paths: string[]): Promise<WalkResult> {
  const files: string[] = [];
  const missing: WalkResult['missing'] = [];
  for (const given of paths) {
    const resolved = path.resolve(given);
    let info;
    try {
      info = await stat(resolved);
    } catch (error) {
      missing.push({ file: given, reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (error as Error).message });
      continue;
    }
    if (info.isDirectory()) {
      const entries = await readdir(resolved, { recursive: true, withFileTypes: true });
      files.push(...entries
        .filter((entry) => entry.isFile() && isAudioFile(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name))
        .sort());
    } else {
      files.push(resolved);
    }
  }
  return { files: [...new Set(files)], missing };
}

export function isAudioFile(name: string): boolean {
  return AUDIO_EXTENSIONS.has(path.extname(name).toLowerCase());
}
