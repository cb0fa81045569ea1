// @ts-check
// The reader thread (reader.ts): runs queries on its own read-only connection, so that a long
// search never holds up the event loop. Plain JavaScript: it runs as it is, from src/ or dist/.
// Messages: { id, sql, parameters } in; { id, rows } or { id, error } out.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const connection = new SQLite(workerData.file, { readonly: true, fileMustExist: true });
connection.pragma('busy_timeout = 5000');

/** Prepared statements by SQL text, least recently used first (queries come in few shapes). */
const statements = new Map();
const CAPACITY = 200;

port.on('message', (/** @type {{ id: number, sql: string, parameters: unknown[] }} */ { id, sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (statement) statements.delete(sql);
    else statement = connection.prepare(sql);
    statements.set(sql, statement);
    if (statements.size > CAPACITY) statements.delete(statements.keys().next().value);
    port.postMessage({ id, rows: statement.all(parameters) });
  } catch (error) {
    const { message, code } = /** @type {{ message: string, code?: string }} */ (error);
    port.postMessage({ id, error: { message, code } });
  }
});
