import type { Mp3EncodeOptions } from '../audio/encode/index.ts';
import { mp3Mode } from '../audio/encode/mp3-options.ts';
import type { SoundMetadata } from '../catalog/writer.ts';
import type { Config } from '../config.ts';
import { createProgress } from '../ingest/progress.ts';
import type { MetadataSources } from '../ingest/metadata.ts';
import { ingestPaths, planIngest, type IngestedFile, type PlannedFile } from '../ingest/pipeline.ts';
import { outputFor, parse, UsageError } from './cli.ts';
import { stopOnSignal } from './interrupt.ts';
import { withServices } from './with-services.ts';

export async function ingestCommand(args: string[], config: Config): Promise<void> {
  const { values, positionals } = parse(args, {
    'vbr-quality': { type: 'string' },
    bitrate: { type: 'string' },
    'dry-run': { type: 'boolean' },
    verbose: { type: 'boolean' },
  });
  const output = outputFor(values.json === true);
  if (positionals.length === 0) throw new UsageError('ingest needs at least one file or folder');
  const encoding = encodingOptions(values['vbr-quality'], values.bitrate);
  const verbose = values.verbose === true;
  const interrupt = stopOnSignal();
  try {
    await withServices(config, async (services) => {
      if (values['dry-run'] === true) {
        const plan = await planIngest(services, positionals, {
          progress: createProgress('files'),
          signal: interrupt.signal,
        });
        if (interrupt.signal.aborted) throw new UsageError('interrupted: nothing was written');
        // Without --verbose the output stays as it was before sources existed.
        const files = verbose ? plan.files : plan.files.map(({ sources: _sources, notes: _notes, ...rest }) => rest);
        const lines = plan.files.map((planned) =>
          [describePlan(planned), ...(verbose ? describeSources(planned) : [])].join('\n'),
        );
        const skipping = plan.skipped.length > 0 ? `, skip ${plan.skipped.length}` : '';
        output.result(
          { dryRun: true, added: plan.added, updated: plan.updated, failed: plan.failed, skipped: plan.skipped, files },
          [
            ...lines,
            `would add ${plan.added}, update ${plan.updated}, refuse ${plan.failed.length}${skipping} (dry run: ` +
              `nothing was written)`,
          ].join('\n'),
        );
        return;
      }
      const summary = await ingestPaths(services, positionals, {
        progress: createProgress('files'),
        signal: interrupt.signal,
        encoding,
      });
      if (interrupt.signal.aborted)
        throw new UsageError(`interrupted: ${summary.added} added and ${summary.updated} updated before the stop`);
      const failures = summary.failed.map((failure) => `  failed: ${failure.file}: ${failure.reason}`);
      const skips = summary.skipped.map((skip) => `  skipped: ${skip.file}: ${skip.reason}`);
      // The count line stays as it was when nothing is skipped (scripts read it).
      const skipping = summary.skipped.length > 0 ? `, skipped ${summary.skipped.length}` : '';
      const perFile = verbose
        ? summary.files.map((file) => [describeIngested(file), ...describeSources(file)].join('\n'))
        : [];
      output.result(
        {
          added: summary.added,
          updated: summary.updated,
          failed: summary.failed,
          skipped: summary.skipped,
          ...(verbose && { files: summary.files }),
        },
        [
          `added ${summary.added}, updated ${summary.updated}, failed ${summary.failed.length}${skipping}`,
          ...failures,
          ...(verbose ? [] : skips),
          ...perFile,
        ].join('\n'),
      );
    });
  } finally {
    interrupt.dispose();
  }
}

/** `--vbr-quality Q` (LAME -V, 0 best to 9, default 2) or `--bitrate K` (constant kbit/s). */
function encodingOptions(
  vbrQuality: string | boolean | undefined,
  bitrate: string | boolean | undefined,
): Mp3EncodeOptions {
  const options: Mp3EncodeOptions = {};
  if (typeof vbrQuality === 'string') options.vbrQuality = Number(vbrQuality);
  if (typeof bitrate === 'string') options.bitrate = Number(bitrate);
  try {
    mp3Mode(options);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return options;
}

/** One line of a dry run: the action, the file, and what would be stored. */
function describePlan(plan: PlannedFile): string {
  if (plan.action === 'refuse') return `refuse  ${plan.file}: ${plan.reason}`;
  if (plan.action === 'skip') return `skip    ${plan.file}: ${plan.reason}`;
  const what = describeMetadata(plan.metadata!);
  if (plan.action === 'update')
    return `update  ${plan.file}: sound ${plan.id} gets ${what}${plan.reason ? ` (${plan.reason})` : ''}`;
  const audio = plan.audio!;
  return (
    `add     ${plan.file}: ${what} (${audio.format}, ${audio.duration.toFixed(2)} s, ${audio.sampleRate} ` +
    `Hz, ${audio.channels} ch) as ${plan.id}`
  );
}

/** One file of a verbose ingest: what happened to it and what it was stored as. */
function describeIngested(file: IngestedFile): string {
  const action = file.action.padEnd(7);
  if (!file.metadata) return `${action} ${file.file}: ${file.reason}`;
  return (
    `${action} ${file.file}: ` +
    `${describeMetadata(file.metadata)}${file.id ? ` as ${file.id}` : ''}${file.reason ? ` (${file.reason})` : ''}`
  );
}

/** `"Name", CATEGORY, tags: a, b`: what a file is stored as. */
function describeMetadata({ name, category, tags, loop }: SoundMetadata): string {
  return (
    `"${name}", ${category ?? 'no category'}, tags: ${tags.length > 0 ? tags.join(', ') : 'none'}` +
    (loop ? `, loop: frames ${loop.startSample} to ${loop.endSample}` : '')
  );
}

/**
 * `--verbose`: which source gave each field (sidecar, id3, vorbis, bext, info, ixml, aiff, ucs,
 * file name, default), and ignored tags.
 */
function describeSources(file: { sources?: MetadataSources; notes?: string[] }): string[] {
  if (!file.sources) return [];
  const sources = Object.entries(file.sources)
    .map(([field, source]) => `${field} ${source}`)
    .join(', ');
  return [`        sources: ${sources}`, ...(file.notes ?? []).map((note) => `        note: ${note}`)];
}
