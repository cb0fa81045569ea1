#!/usr/bin/env node
// Runs the compiled build (dist/, made by `npm install` through the prepare script) when it matches
// the sources; otherwise the TypeScript sources through tsx's loader, so an edit needs no build step.
// The build is the lighter of the two: tsx's loader thread and transforms cost about 55 MB.
import { isBuildCurrent } from './build-state.js';

if (isBuildCurrent()) {
  await import('../dist/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
