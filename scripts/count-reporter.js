// A node:test reporter that counts leaf tests (and skipped suites) and writes
// { passed, failed, skipped, skippedNames, failures } as JSON: scripts/test.js checks the skipped ones against
// test/allowed-skips.json and repeats the failures last, where a log's tail shows them.
import path from 'node:path';

export default async function* countReporter(source) {
  const counts = { passed: 0, failed: 0, skipped: 0, skippedNames: [], failures: [] };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const skipped = Boolean(event.data.skip || event.data.todo);
    // A suite counts only when skipped: its tests are then never reported on their own.
    if (event.data.details?.type === 'suite' && !skipped) continue;
    if (skipped) {
      counts.skipped++;
      counts.skippedNames.push(event.data.name);
    } else if (event.type === 'test:pass') counts.passed++;
    else {
      counts.failed++;
      const cause = event.data.details?.error?.cause ?? event.data.details?.error;
      const reason = String(cause?.message ?? cause ?? '')
        .replace(/\s+/g, ' ')
        .slice(0, 300);
      const file = path.relative(process.cwd(), event.data.file ?? '');
      counts.failures.push(`${file}: ${event.data.name}: ${reason}`);
    }
  }
  yield `${JSON.stringify(counts)}\n`;
}
