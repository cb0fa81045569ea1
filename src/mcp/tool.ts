import type { FastifyBaseLogger } from 'fastify';
import type { AudioContent, ImageContent, ResourceLink, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { KeyOwner } from '../accounts/store.ts';
import type { QuotaDecision } from '../quota/quota.ts';
import type { McpServices } from '../services.ts';
import type { RequestQuota } from './request-quota.ts';

/** What a tool may use while it answers one call: the same services as the REST routes. */
export interface ToolContext {
  services: McpServices;
  /** The caller, already authenticated at the HTTP level. */
  owner: KeyOwner;
  quota: RequestQuota;
  log: FastifyBaseLogger;
}

/** What one tool call may use: the request's context and the quota decision made for this call. */
export interface CallContext extends ToolContext {
  decision: QuotaDecision;
}

/**
 * A successful answer: the REST-shaped data and its rendering for models that read text, then
 * what clients that go further can use: audio to hear, a picture to see, links to the sounds' resources.
 */
export interface ToolAnswer<O> {
  structured: O;
  text: string;
  audio?: AudioContent;
  image?: ImageContent;
  /** `sound://{id}` links to every sound the answer names (sound-links.ts). */
  links?: ResourceLink[];
}

/**
 * One MCP tool, declared once: name, documentation for the agent, input schema, annotations and
 * what it does. `server.ts` turns it into a registered tool; failures are
 * thrown as DomainError (not_found, invalid) and become `isError` results there. `R` is the
 * answer `run` gives.
 */
export interface SoundTool<I extends z.ZodObject = z.ZodObject, R = ToolAnswer<Record<string, unknown>>> {
  name: string;
  title: string;
  description: string;
  inputSchema: I;
  annotations: ToolAnnotations;
  run(args: z.output<I>, context: CallContext): Promise<R>;
}

/**
 * Keeps a tool's input types tied to its `run` while the list of tools stays uniform. No tool
 * publishes an output schema: each answer's text says what its structured content holds, and a
 * schema would cost every agent its bytes in tools/list for little it can act on.
 */
export function defineTool<I extends z.ZodObject>(tool: SoundTool<I>): SoundTool {
  return tool;
}

/** Every tool only reads the catalog (a download is counted, but nothing a user owns changes). */
export function readOnly(options: { idempotent: boolean }): ToolAnnotations {
  // No title here: the tool's own title says it, and every agent pays for each byte of tools/list.
  return {
    // destructiveHint is left out: it means nothing when readOnlyHint is true.
    readOnlyHint: true,
    idempotentHint: options.idempotent,
    openWorldHint: false,
  };
}
