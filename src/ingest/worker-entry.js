// Worker threads do not inherit tsx's loader from a `register()` call: register it here.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
