import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  McpError,
  type ReadResourceResult,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { withoutApiKeys } from '../../api-key-format.ts';
import type { QuotaDecision } from '../../quota/quota.ts';
import { toSound } from '../../shapes/mappers.ts';
import { QUOTA_EXCEEDED } from '../json-rpc.ts';
import { SOUND_URI_TEMPLATE } from '../sound-links.ts';
import { storedMp3Base64 } from '../stored-audio.ts';
import type { ToolContext } from '../tool.ts';
import { INTERNAL_ERROR_MESSAGE, quotaExceededMessage } from '../tool-result.ts';
import { listSoundResources } from './sound-pages.ts';

/**
 * resources/list as the SDK declares it, except that the cursor is not checked here: a cursor of
 * the wrong type would otherwise be an internal error, rather than sound-pages.ts's invalid params.
 */
const ListSoundsRequestSchema = ListResourcesRequestSchema.extend({
  params: z.looseObject({ cursor: z.unknown().optional() }).optional(),
});

/** Sounds up to this long carry their MP3 in the resource; longer ones would make a read megabytes of base64. */
export const MAX_BLOB_SECONDS = 30;

/**
 * `sound://{id}`: the sound's metadata as JSON (what GET /api/v1/sounds/{id} gives as `data`)
 * and, for a sound of at most MAX_BLOB_SECONDS, its MP3 as a base64 blob. A read and a page of
 * resources/list each count one request of the quota (request-quota.ts), as REST's sound and
 * search requests do.
 */
export function registerSoundResources(server: McpServer, context: ToolContext): void {
  server.registerResource(
    'sound',
    new ResourceTemplate(SOUND_URI_TEMPLATE, { list: undefined }),
    {
      title: 'A sound of the catalog',
      description:
        `One sound's metadata as JSON (as GET /api/v1/sounds/{id}), and its MP3 (audio/mpeg) when it ` +
        `lasts at most ${MAX_BLOB_SECONDS} s.`,
      mimeType: 'application/json',
    },
    (uri, variables, extra) => guarded(context, () => readSound(uri, String(variables.id), extra.requestId, context)),
  );
  // The SDK's resources/list ignores cursors; this one pages through the catalog. Replacing a
  // handler is how the SDK's Server is meant to be extended (setRequestHandler replaces).
  server.server.setRequestHandler(ListSoundsRequestSchema, (request, extra) =>
    guarded(context, async () => {
      refuseOverQuota(context.quota.decisionFor(extra.requestId));
      return listSoundResources(request.params?.cursor, context.services);
    }),
  );
}

/** A read or a page of the list past the quota: a JSON-RPC error, as a REST 429 with its `limit` and `reset`. */
function refuseOverQuota(decision: QuotaDecision): void {
  if (!decision.allowed) {
    const { limit, reset } = decision;
    throw new McpError(QUOTA_EXCEEDED, quotaExceededMessage(decision), { limit, reset });
  }
}

async function readSound(
  uri: URL,
  id: string,
  requestId: RequestId,
  context: ToolContext,
): Promise<ReadResourceResult> {
  refuseOverQuota(context.quota.decisionFor(requestId));
  const { catalog, signer, files } = context.services;
  const stored = await catalog.findById(id);
  if (!stored) throw new McpError(ErrorCode.InvalidParams, withoutApiKeys(`Sound ${id} not found`));
  const json = { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(toSound(stored, signer)) };
  if (stored.duration > MAX_BLOB_SECONDS) return { contents: [json] };
  return {
    contents: [
      json,
      { uri: uri.href, mimeType: 'audio/mpeg', blob: await storedMp3Base64({ files, signer }, stored, stored.fileKey) },
    ],
  };
}

/** MCP errors go out as they are; anything else is logged and answered without internals, as on REST. */
async function guarded<T>(context: ToolContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof McpError) throw error;
    context.log.error({ err: error }, 'MCP resource request failed');
    throw new McpError(ErrorCode.InternalError, INTERNAL_ERROR_MESSAGE);
  }
}
