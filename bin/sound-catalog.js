#!/usr/bin/env node
// Runs the TypeScript sources through tsx's loader: no build step between `npm install` and use.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
