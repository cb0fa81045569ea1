#!/usr/bin/env node
// Runs the compiled service in dist/, made by `npm install` (the prepare script) or `npm run build`.
// While developing, `npm run dev -- ARGS` runs the TypeScript sources through tsx instead.
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write(
    'sound-catalog: the compiled service (dist/) is missing. Run `npm install` (or `npm run build`) in the project folder first.\n',
  );
  process.exit(1);
}
await import(main.href);
