import { z } from 'zod';
import { CHANGES_PAGE } from '../../catalog/limits.ts';
import { HttpError } from '../../shapes/answers.ts';
import { cursorOf, encodeCursor, strictInt } from '../../shapes/params.ts';
import { catalogChangeSchema, changesGoneSchema } from '../../shapes/schemas.ts';
import { defineEndpoint } from '../endpoint.ts';
import { authErrors, errorResponses } from './responses.ts';

export const listChanges = defineEndpoint({
  method: 'GET',
  url: '/api/v1/changes',
  operationId: 'listCatalogChanges',
  summary: "Follow the catalog's changes",
  description:
    'What a mirror reads to stay current: every change to a sound (added, updated, removed) in the order it was ' +
    "made, from the catalog's change log. Send each answer's next_cursor as since to read on; an empty page " +
    'means the mirror is current (its next_cursor is the one to ask again with). The log keeps the latest ' +
    'changes only: a since older than what it keeps, or no since once older changes were let go, answers 410 ' +
    'with a next_cursor: walk the catalog again (GET /api/v1/sounds with cursor), then follow changes from that ' +
    'cursor. Counts one request.',
  tag: 'extensions',
  security: 'apiKey',
  query: z.strictObject({
    since: cursorOf('changes')
      .optional()
      .describe('A next_cursor of an earlier answer; without it, from the start of the log.'),
    limit: strictInt(CHANGES_PAGE.min, CHANGES_PAGE.max, CHANGES_PAGE.default).describe(
      `Changes per page, ${CHANGES_PAGE.min} to ${CHANGES_PAGE.max}, default ${CHANGES_PAGE.default}.`,
    ),
  }),
  responses: {
    200: {
      description: 'Changes after since, oldest first.',
      schema: z.object({
        data: z.array(catalogChangeSchema),
        next_cursor: z.string().describe('since for the next page.'),
      }),
    },
    400: errorResponses[400],
    410: {
      description: 'The log no longer reaches back to since: walk the catalog again, then follow from next_cursor.',
      schema: changesGoneSchema,
    },
    ...authErrors,
  },
  async handler({ query, services }) {
    const list = await services.catalog.changes(query.since ?? 0, query.limit);
    if ('gone' in list) {
      throw new HttpError(410, {
        error:
          'The change log no longer holds every change after this cursor: walk the catalog again (GET ' +
          '/api/v1/sounds with cursor), then follow changes from next_cursor',
        next_cursor: encodeCursor('changes', list.newest),
      });
    }
    return { data: list.changes, next_cursor: encodeCursor('changes', list.next) };
  },
});
