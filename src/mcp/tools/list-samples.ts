import { z } from 'zod';
import { LIST_LIMITS } from '../../catalog/limits.ts';
import { toWords } from '../../catalog/sound.ts';
import { toCursorPagination, toSoundSummary } from '../../shapes/mappers.ts';
import { soundLinks } from '../sound-links.ts';
import { detailAsInSearch, toConciseSound } from '../sound-shapes.ts';
import { soundListText } from '../sound-text.ts';
import { defineTool, readOnly } from '../tool.ts';
import { listArgument, toListArgument } from './arguments.ts';

const { samples } = LIST_LIMITS;

/**
 * A walk of the samples goes in their list's order, by id, which never changes: its cursor is the
 * last id listed (base64url, of a kind no other walk gives out), and every sample present from the
 * walk's start to its end is listed exactly once. Read back only in its canonical form.
 */
const encodeSampleCursor = (id: string) => Buffer.from(`a1.${id}`).toString('base64url');
function decodeSampleCursor(text: string): string | null | undefined {
  if (text === '') return null;
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const match = /^a1\.(.+)$/s.exec(Buffer.from(text, 'base64url').toString('utf8'));
  return match !== null && encodeSampleCursor(match[1]!) === text ? match[1]! : undefined;
}

export const listSamplesTool = defineTool({
  name: 'list_samples',
  title: 'Free sample sounds',
  description:
    'The public sample sounds (at most 12) anyone may hear without a plan; with detail "full", their tags and ' +
    'stream_url (get_sound for timing and loudness).',
  inputSchema: z.strictObject({
    q: z.string().max(200).optional().describe('Keywords, all in name or description.'),
    tags: listArgument('Tags, any of them.'),
    limit: z.int().min(samples.min).max(samples.max).default(samples.default).describe('How many samples.'),
    cursor: z
      .string()
      .max(300)
      .refine(
        (text) => decodeSampleCursor(text) !== undefined,
        'not a cursor list_samples gave out; start again with "" or without it',
      )
      .optional()
      .describe("The last page's pagination.next_cursor."),
    detail: detailAsInSearch,
  }),
  annotations: readOnly({ idempotent: true }),
  async run(args, { services }) {
    const after = args.cursor === undefined ? null : decodeSampleCursor(args.cursor)!;
    const filters = { words: toWords(args.q), tags: toListArgument(args.tags) };
    // Every matching sample, in id order, when walking on: samples are the few an operator chose,
    // and the index reads them all for the total either way.
    const page = await services.catalog.samples({
      ...filters,
      limit: after === null ? args.limit + 1 : Number.MAX_SAFE_INTEGER,
    });
    const rest = after === null ? page.items : page.items.filter((sound) => sound.id > after);
    const more = rest.length > args.limit;
    const shown = rest.slice(0, args.limit);
    // No download_url: the samples' shape is the public one, whoever asks.
    const full = shown.map((sound) => toSoundSummary(sound, services.signer));
    const data = args.detail === 'full' ? full : full.map(toConciseSound);
    const pagination = toCursorPagination(
      1,
      args.limit,
      page.total,
      more ? encodeSampleCursor(shown[shown.length - 1]!.id) : null,
    );
    const next = pagination.next_cursor === null ? '' : `\nNext page: cursor "${pagination.next_cursor}".`;
    return {
      structured: { data, pagination },
      text: soundListText(data, pagination, 'sample') + next,
      links: args.detail === 'full' ? soundLinks(full) : [],
    };
  },
});
