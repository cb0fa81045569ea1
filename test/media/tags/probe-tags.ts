import { execFileSync } from 'node:child_process';

/** ffprobe's format and first stream's tags (Ogg's comments are the stream's), keys lower-cased. */
export function probeTags(file: string): Record<string, string> {
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format_tags:stream_tags', '-of', 'json', file]);
  const probed = JSON.parse(out.toString()) as {
    format: { tags?: Record<string, string> };
    streams?: Array<{ tags?: Record<string, string> }>;
  };
  const tags = { ...probed.streams?.[0]?.tags, ...probed.format.tags };
  return Object.fromEntries(Object.entries(tags).map(([key, value]) => [key.toLowerCase(), value]));
}
