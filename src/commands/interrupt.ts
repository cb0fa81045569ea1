/**
 * The first Ctrl-C (or SIGTERM) asks a long job to stop after the work in hand, so nothing is
 * left half-written; a second one exits at once (scratch files are swept on the next run).
 */
export function stopOnSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nstopping after the files in progress (press Ctrl-C again to quit now)\n');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
