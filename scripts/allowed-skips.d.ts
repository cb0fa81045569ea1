/** The skipped tests that test/allowed-skips.json (at `allowListFile`) does not name. */
export function notAllowed(skippedNames: string[], allowListFile: string): string[];
