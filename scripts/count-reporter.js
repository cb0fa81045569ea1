// A node:test reporter that counts leaf tests (and skipped suites) and writes { passed, failed, skipped, skippedNames }
// as JSON: scripts/test.js checks the skipped ones against test/allowed-skips.json.
export default async function* countReporter(source) {
  const counts = { passed: 0, failed: 0, skipped: 0, skippedNames: [] };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const skipped = Boolean(event.data.skip || event.data.todo);
    // A suite counts only when skipped: its tests are then never reported on their own.
    if (event.data.details?.type === 'suite' && !skipped) continue;
    if (skipped) {
      counts.skipped++;
      counts.skippedNames.push(event.data.name);
    } else if (event.type === 'test:pass') counts.passed++;
    else counts.failed++;
  }
  yield `${JSON.stringify(counts)}\n`;
}
