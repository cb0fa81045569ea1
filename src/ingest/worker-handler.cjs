// What piscina loads in each worker thread, for ingest and for renditions (worker-pool.ts).
// piscina loads a worker's file with require() first; on Node.js 20, require() of an ES module
// crashed the whole process inside Node.js itself (assertions in CreateRequiredModuleFacade and in
// IsGraphAsync, in test runs). This file is CommonJS, so require() loads it as such, and it loads
// the worker's ES module with import(), which never takes that path.
'use strict';
const { workerData } = require('node:worker_threads');

/** The worker's function: the default export of workerData.entry, imported as the thread starts. */
const handler = import(workerData.entry).then((module) => module.default);

module.exports = (job) => handler.then((run) => run(job));
