/**
 * Request log lines, in process:  node --import tsx bench/log-lines.ts 2>/dev/null
 * Writes 300,000 lines of the size the server logs (about 170 bytes), 50 per event-loop turn as a
 * loaded server does, through pino's destination (sonic-boom) with different options, and prints
 * the CPU time per line. Standard error should go to /dev/null or a file.
 */
import pino from 'pino';

const record = JSON.stringify({
  level: 30,
  time: Date.now(),
  pid: process.pid,
  hostname: 'bench',
  reqId: 'a5b1f0c4-1d5e-4c3b-9d5e-6a1f0e2b3c4d',
  method: 'GET',
  path: '/api/v1/sounds',
  status: 200,
  ms: 1.4,
  msg: 'request',
});
const line = `${record}\n`;
const TURNS = 6000;
const PER_TURN = 50;

const candidates: Record<string, () => { write(text: string): unknown }> = {
  'own turn batch in front of sonic-boom (before)': () => turnBatch(pino.destination({ dest: 2, sync: false })),
  'pino.destination sync:false (defaults)': () => pino.destination({ dest: 2, sync: false }),
  'pino.destination sync:false maxWrite 4096': () => pino.destination({ dest: 2, sync: false, maxWrite: 4096 }),
  'pino.destination sync:false minLength 4096': () => pino.destination({ dest: 2, sync: false, minLength: 4096 }),
};

for (let round = 0; round < 3; round++) {
  for (const [name, make] of Object.entries(candidates)) {
    const stream = make();
    const started = process.cpuUsage();
    await new Promise<void>((resolve) => {
      let turn = 0;
      const next = () => {
        for (let i = 0; i < PER_TURN; i++) stream.write(line);
        if (++turn < TURNS) setImmediate(next);
        else resolve();
      };
      next();
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const used = process.cpuUsage(started);
    process.stdout.write(
      `round ${round + 1}: ${name}: ` +
        `${(((used.user + used.system) * 1000) / (TURNS * PER_TURN)).toFixed(0)} ns CPU per line\n`,
    );
  }
}

/** The batcher the server had: lines of one event-loop turn joined and handed on as one string. */
function turnBatch(target: { write(text: string): unknown }) {
  let lines: string[] = [];
  const flush = () => {
    target.write(lines.join(''));
    lines = [];
  };
  return { write: (text: string) => lines.push(text) === 1 && setImmediate(flush) };
}
