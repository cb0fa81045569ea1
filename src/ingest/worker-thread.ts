// The compiled workers' entry (from sources, worker-entry.js). piscina loads a worker file with
// require() first; on Node 20 that require of an ES module once crashed the whole process in
// Node's own code (an assertion in CreateRequiredModuleFacade, seen in a test run). A module with
// top-level await cannot be required, so require() refuses it cleanly and piscina imports it.
const worker = await import('./worker.ts');
export default worker.default;
