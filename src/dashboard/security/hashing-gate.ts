/** Thrown when the gate's queue is full or a waiter's turn did not come in time: answer 503. */
export class HashingBusy extends Error {
  constructor() {
    super('too many password checks at once');
  }
}

/**
 * At most `concurrency` jobs run at once; up to `queueLimit` more wait in order, each for at most
 * `maxWaitMs`. Password hashes hold a lot of memory while they run, so the number in flight is
 * what bounds the memory sign-ins can take. (None of our dependencies offers a bounded wait
 * queue for promises; piscina would move the work to threads, which argon2 already leaves the
 * main thread for.)
 */
export class HashingGate {
  private running = 0;
  private readonly waiting: Array<{ start: () => void; timer: NodeJS.Timeout }> = [];
  /** The most jobs that ran at once since the process started (tests read it). */
  peakRunning = 0;

  constructor(
    private readonly concurrency: number,
    private readonly queueLimit: number,
    private readonly maxWaitMs: number,
  ) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await job();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.concurrency && this.waiting.length === 0) {
      this.running += 1;
      this.peakRunning = Math.max(this.peakRunning, this.running);
      return Promise.resolve();
    }
    if (this.waiting.length >= this.queueLimit) return Promise.reject(new HashingBusy());
    return new Promise((resolve, reject) => {
      const waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(new HashingBusy());
        }, this.maxWaitMs),
      };
      this.waiting.push(waiter);
    });
  }

  /** A finished job hands its place straight to the first waiter, so no newcomer can slip in between. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next.start();
    else this.running -= 1;
  }
}
