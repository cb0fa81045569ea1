// Worker threads do not inherit tsx's loader from a `register()` call: register it here, then
// hand piscina the worker's function.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./worker.ts');
export default worker.default;
