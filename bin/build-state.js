// Whether dist/ was compiled from the sources as they are now. The fingerprint covers every file
// under src/ (path, size, modification time), so an edit, a new file or a deleted one all show.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const STAMP = 'build.json';

export function sourceFingerprint(sources = path.join(ROOT, 'src')) {
  const files = readdirSync(sources, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  return files.map((file) => {
    const { size, mtimeMs } = statSync(file);
    return `${path.relative(sources, file)} ${size} ${mtimeMs}`;
  }).join('\n');
}

/** True when `dist` holds a build of exactly the current sources. */
export function isBuildCurrent(dist = path.join(ROOT, 'dist'), sources = path.join(ROOT, 'src')) {
  try {
    const stamp = JSON.parse(readFileSync(path.join(dist, STAMP), 'utf8'));
    return stamp.sources === sourceFingerprint(sources);
  } catch {
    return false;
  }
}
