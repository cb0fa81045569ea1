// @ts-check
/**
 * The better-sqlite3 build this Node.js can run, for every SQLite connection the project opens.
 *
 * better-sqlite3 13 is built on Node-API 10 (Node.js 22.14 and later). Its 12 line wraps objects
 * with node::ObjectWrap, and Node.js 24.19 and later abort the process when such an object is
 * collected after its environment is gone (a statement at exit, or in a worker that ended):
 * "RemoveEnvironmentCleanupHook ... (env) != nullptr". 12 is kept for Node.js 20 (Node-API 9),
 * which cannot load 13. Plain JavaScript so that worker threads, which run without tsx's loader,
 * can import it from sources.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const nodeApiVersion = Number(process.versions.napi);

/** @type {typeof import('better-sqlite3')} */
const SQLite = nodeApiVersion >= 10 ? require('better-sqlite3') : require('better-sqlite3-v12');

export default SQLite;
