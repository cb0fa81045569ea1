/**
 * Learns the projection of similar sounds' measures (src/audio/analyze/similar-projection.ts)
 * from the training sources of the labelled recordings, never the held-out ones:
 *   node --import tsx bench/similar-eval/build.ts /tmp/similar-eval
 *   node --import tsx scripts/learn-similar-projection.ts /tmp/similar-eval
 *
 * By linear discriminant analysis (bench/similar-eval/discriminant.ts). The docs:
 * docs/similar-sounds.md.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { MEASURE_NAMES } from '../src/audio/analyze/descriptors.ts';
import { isHeldOut, measuresOf, readRecordings } from '../bench/similar-eval/data.ts';
import { learn } from '../bench/similar-eval/discriminant.ts';

const folder = process.argv[2] ?? '/tmp/similar-eval';
const training = readRecordings(folder).filter((recording) => !isHeldOut(recording));
const sources = [...new Set(training.map((recording) => recording.source))];
console.log(`training on ${training.length} recordings from ${sources.length} sources: ${sources.join(', ')}`);
const projection = learn(
  training.map((recording) => measuresOf(path.join(folder, recording.file))),
  training.map((recording) => recording.family),
  32,
);
const round = (values: number[]) => values.map((value) => Number(value.toPrecision(6)));
const target = new URL('../src/audio/analyze/similar-projection.ts', import.meta.url);
writeFileSync(
  target,
  `/**
 * Made by scripts/learn-similar-projection.ts from the training sources named in
 * bench/similar-eval/data.ts (${training.length} recordings of ${sources.length} sources; docs/similar-sounds.md says
 * where they come from). Do not edit: run the script again. The measures are z-scored with
 * \`mean\` and \`scale\`, then projected on each of \`axes\`; \`spread\` is each axis's variance over
 * the training sounds.
 */
export const MEASURE_COUNT = ${MEASURE_NAMES.length};
export const PROJECTION = {
  mean: ${JSON.stringify(round(projection.mean))},
  scale: ${JSON.stringify(round(projection.scale))},
  axes: [
${projection.axes.map((axis) => `    ${JSON.stringify(round(axis))},`).join('\n')}
],
  spread: ${JSON.stringify(round(projection.spread))},
};
`,
);
console.log(`wrote ${projection.axes.length} axes of ${MEASURE_NAMES.length} measures to ${target.pathname}`);
