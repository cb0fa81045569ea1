/**
 * Shows how far a long job is: a bar redrawn in place on a terminal, a line every few seconds
 * otherwise (a log file, CI). Always on standard error, so --json output stays clean.
 */
export interface Progress {
  start(total: number): void;
  advance(): void;
  finish(): void;
}

export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  let total = 0;
  let done = 0;
  let startedAt = 0;
  let lastDrawn = 0;
  const terminal = stream.isTTY === true;
  const interval = terminal ? 100 : 5000;

  const line = () => {
    const seconds = (performance.now() - startedAt) / 1000;
    const rate = done / Math.max(seconds, 0.001);
    const eta = rate > 0 ? Math.ceil((total - done) / rate) : 0;
    const counts =
      `${done}/${total} ${label}  ${rate.toFixed(1)}/s  ` +
      `${done < total ? `about ${eta}s left` : `${seconds.toFixed(1)}s`}`;
    if (!terminal) return counts;
    const width = 30;
    const filled = total > 0 ? Math.round((done / total) * width) : width;
    return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${counts}`;
  };
  const draw = (force: boolean) => {
    const now = performance.now();
    if (!force && now - lastDrawn < interval) return;
    lastDrawn = now;
    stream.write(terminal ? `\r${line()}\u001b[K` : `${line()}\n`);
  };

  return {
    start(count) {
      total = count;
      startedAt = performance.now();
      lastDrawn = terminal ? 0 : startedAt;
      if (terminal) draw(true);
    },
    advance() {
      done++;
      draw(false);
    },
    finish() {
      draw(true);
      if (terminal) stream.write('\n');
    },
  };
}

/** For callers that show nothing (tests, the server's own first start uses its logger). */
export const silentProgress: Progress = { start() {}, advance() {}, finish() {} };
