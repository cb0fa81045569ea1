/**
 * Type-checked, never run (`npm run typecheck` reads test/ through tsconfig.json; the test runner
 * takes only *.test.ts). A 200 answer is written by JSON.stringify, so the types are what keeps
 * a field outside the schema from reaching a client: each `@ts-expect-error` below is a leak that
 * must fail to compile, and if the guard in defineEndpoint or defineTool stops catching it, the
 * unused directive fails the type check instead.
 */
import { z } from 'zod';
import { defineEndpoint } from '../../src/api/endpoint.ts';
import type { StoredSound } from '../../src/catalog/sound.ts';
import type { MediaSigner } from '../../src/media/signing.ts';
import { defineTool, readOnly } from '../../src/mcp/tool.ts';
import { HttpError } from '../../src/shapes/answers.ts';
import { toCursorPagination, toPagination, toSound } from '../../src/shapes/mappers.ts';
import {
  pageOrCursorPaginationSchema, paginationSchema, soundSchema, streamResultSchema,
} from '../../src/shapes/schemas.ts';

const route = {
  method: 'GET', url: '/leak', operationId: 'leak', summary: 'leak', description: 'leak', tag: 'leak', security: 'apiKey', query: z.object({}),
} as const;
const oneSound = { 200: { description: 'One sound.', schema: z.object({ data: soundSchema }) } };
const someSounds = { 200: { description: 'Sounds.', schema: z.object({ data: z.array(soundSchema), pagination: paginationSchema }) } };
const aStreamUrl = { 200: { description: 'A streaming URL.', schema: z.object({ data: streamResultSchema }) } };
declare const stored: StoredSound;

/** A mapper that adds a field its body does not have. Its inferred type says so, and that is enough. */
const toLeakySound = (sound: StoredSound, signer: MediaSigner) => Object.assign(toSound(sound, signer), { file_key: sound.fileKey });

export const leaks = [
  // A stored sound spread into a body: TypeScript checks no excess fields of a spread, so fileKey,
  // fileSize, contentHash and the rest would be written.
  defineEndpoint({
    ...route,
    responses: aStreamUrl,
    // @ts-expect-error fileKey (and the stored sound's other fields) are not in StreamResult
    async handler({ services }) {
      return { data: { ...stored, stream_url: services.signer.sign(stored.id, 'stream').url } };
    },
  }),
  // The same stored sound, as a variable whose type says more than the schema's.
  defineEndpoint({
    ...route,
    responses: oneSound,
    // @ts-expect-error fileKey is not in Sound
    async handler({ services }) {
      const body = Object.assign(toSound(stored, services.signer), { fileKey: stored.fileKey });
      return { data: body };
    },
  }),
  // A field too many one level down, in a domain object passed whole.
  defineEndpoint({
    ...route,
    responses: oneSound,
    // @ts-expect-error energy is not in Timing
    async handler({ services }) {
      const timing = { ...stored.timing, energy: 0.5 };
      return { data: { ...toSound(stored, services.signer), timing } };
    },
  }),
  // A field too many in each sound of a list.
  defineEndpoint({
    ...route,
    responses: someSounds,
    // @ts-expect-error numDownloads is in PopularSound, not in Sound
    async handler({ services }) {
      const data = [stored].map((sound) => ({ ...toSound(sound, services.signer), numDownloads: sound.numDownloads }));
      return { data, pagination: toPagination(1, 20, data.length) };
    },
  }),
  // A field too many in one branch of a union schema (a page, or a walk's page with next_cursor):
  // the other branch, which lacks it, must not let it through. (A value of a subtype of the other
  // branch's type, not a literal, is reduced away by TypeScript in a conditional; the suite's check
  // of every answer against the OpenAPI document catches that one.)
  defineEndpoint({
    ...route,
    responses: { 200: { description: 'A walk.', schema: z.object({ pagination: pageOrCursorPaginationSchema }) } },
    // @ts-expect-error next_page is in neither Pagination nor CursorPagination
    async handler({ request }) {
      return {
        pagination: request.url.includes('cursor=') ? { ...toCursorPagination(1, 20, 0, null), next_page: 2 } : toPagination(1, 20, 0),
      };
    },
  }),
  // A mapper's result with an extra field.
  defineEndpoint({
    ...route,
    responses: oneSound,
    // @ts-expect-error file_key is not in Sound
    async handler({ services }) {
      return { data: toLeakySound(stored, services.signer) };
    },
  }),
  // The same leaks through an MCP tool's structured answer, which the SDK checks against its
  // output schema but sends as given.
  defineTool({
    name: 'leak',
    title: 'leak',
    description: 'leak',
    inputSchema: z.object({}),
    outputSchema: soundSchema,
    annotations: readOnly({ title: 'leak', idempotent: true }),
    // @ts-expect-error file_key is not in Sound
    async run(_args, { services }) {
      const sound = toLeakySound(stored, services.signer);
      return { structured: sound, text: sound.name };
    },
  }),
  defineTool({
    name: 'leak',
    title: 'leak',
    description: 'leak',
    inputSchema: z.object({}),
    outputSchema: z.object({ data: z.array(soundSchema) }),
    annotations: readOnly({ title: 'leak', idempotent: true }),
    // @ts-expect-error energy is not in Loudness
    async run(_args, { services }) {
      const data = [{ ...toSound(stored, services.signer), loudness: { ...stored.loudness, energy: 0.5 } }];
      return { structured: { data }, text: 'one sound' };
    },
  }),
];

/** What must still compile: exact bodies, answers other than 200, and optional fields left out. */
export const fine = [
  defineEndpoint({
    ...route,
    responses: oneSound,
    async handler({ services }) {
      return { data: toSound(stored, services.signer) };
    },
  }),
  // Only errors thrown: the handler returns nothing of its own.
  defineEndpoint({
    ...route,
    responses: oneSound,
    async handler() {
      throw new HttpError(404, { error: 'Sound not found' });
    },
  }),
  // Another answer sent by hand: the handler returns the reply.
  defineEndpoint({
    ...route,
    responses: oneSound,
    async handler({ services, reply }) {
      if (stored.isSample) return reply.code(204).send();
      return { data: toSound(stored, services.signer) };
    },
  }),
  // A domain object passed whole when it has exactly its body's fields; an optional field absent.
  defineEndpoint({
    ...route,
    responses: { 200: { description: 'Timing.', schema: z.object({ timing: soundSchema.shape.timing, note: z.string().optional() }) } },
    async handler() {
      return { timing: stored.timing };
    },
  }),
];
