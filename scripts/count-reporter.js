// A node:test reporter that counts leaf tests and writes { passed, failed, skipped } as JSON.
export default async function* countReporter(source) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.details?.type === 'suite') continue;
    if (event.data.skip || event.data.todo) counts.skipped++;
    else if (event.type === 'test:pass') counts.passed++;
    else counts.failed++;
  }
  yield JSON.stringify(counts) + '\n';
}
