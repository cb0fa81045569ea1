// @ts-check
/**
 * A worker thread that moves SQLite's WAL into the database file (a checkpoint) for the server,
 * so that the server's event loop never waits for it. Left to SQLite, the commit that crosses
 * the WAL's size threshold runs the checkpoint and its two fsyncs itself: under load that stalled
 * every request in flight for several milliseconds about once a second.
 *
 * Plain JavaScript, run as it is from sources and from dist/: worker threads do not inherit
 * tsx's loader, and this file needs nothing but better-sqlite3. Its own connection to the same
 * file; PASSIVE checkpoints never block the server's readers or writers.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from './better-sqlite3.js';

/** @type {{ file: string, intervalMs: number }} */
const { file, intervalMs } = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const connection = new SQLite(file);
// A writer in another process holding the lock: wait a little, then try again at the next tick.
connection.pragma('busy_timeout = 100');

const timer = setInterval(() => {
  try {
    connection.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    port.postMessage({ failed: error instanceof Error ? error.message : String(error) });
  }
}, intervalMs);

port.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  connection.close();
  port.close();
});
