import { ErrorCode, McpError, type ListResourcesResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_SEARCH_PAGE } from '../../catalog/limits.ts';
import type { ApiServices } from '../../services.ts';
import { soundResource } from '../sound-links.ts';

/** Sounds per page of resources/list. */
export const RESOURCE_PAGE_SIZE = 50;

/**
 * One page of `sound://` resources, oldest sound first: new sounds join at the end, so a client
 * walking the pages while the catalog grows neither skips nor repeats a sound. The cursor is
 * opaque to clients (base64url of `page:N`); anything else is refused as invalid params.
 */
export async function listSoundResources(
  cursor: unknown,
  services: Pick<ApiServices, 'catalog'>,
): Promise<ListResourcesResult> {
  const page = cursor === undefined ? 1 : pageOf(cursor);
  const found = await services.catalog.search({
    words: [],
    categories: [],
    tags: [],
    sort: 'created_at',
    order: 'asc',
    page,
    limit: RESOURCE_PAGE_SIZE,
  });
  const resources = found.items.map(soundResource);
  const more = page * RESOURCE_PAGE_SIZE < found.total && page < MAX_SEARCH_PAGE;
  return { resources, ...(more && { nextCursor: cursorOf(page + 1) }) };
}

function cursorOf(page: number): string {
  return Buffer.from(`page:${page}`).toString('base64url');
}

function pageOf(cursor: unknown): number {
  const text = typeof cursor === 'string' ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^page:([1-9]\d{0,5})$/.exec(text);
  const page = match ? Number(match[1]) : NaN;
  // Only cursors this server hands out: page 2 and on, each encoded exactly as cursorOf does.
  if (!(page >= 2 && page <= MAX_SEARCH_PAGE) || cursorOf(page) !== cursor) {
    throw new McpError(
      ErrorCode.InvalidParams,
      'Invalid cursor: pass the nextCursor of an earlier resources/list answer unchanged, or no cursor for the ' +
        'first page.',
    );
  }
  return page;
}
