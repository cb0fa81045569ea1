/** Where the shared EBU Tech 3341 files live: beside the repo (CI's clone and this tree alike). */
import { existsSync } from 'node:fs';
import path from 'node:path';

export function ebuTestdataDir(): string {
  const candidates = [
    path.resolve(import.meta.dirname, '../../../../shared/testdata/ebu-tech3341'),
    path.resolve(import.meta.dirname, '../../../shared/testdata/ebu-tech3341'),
  ];
  const found = candidates.find((dir) => existsSync(dir));
  if (!found) throw new Error(`EBU Tech 3341 test files not found; looked in ${candidates.join(', ')}`);
  return found;
}
