// Which skipped tests CI does not allow: those not named in test/allowed-skips.json.
import { readFileSync } from 'node:fs';

export function notAllowed(skippedNames, allowListFile) {
  const { allowed } = JSON.parse(readFileSync(allowListFile, 'utf8'));
  const names = new Set(allowed.map((entry) => entry.test));
  return skippedNames.filter((name) => !names.has(name));
}
