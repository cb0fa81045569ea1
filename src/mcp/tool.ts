import type { FastifyBaseLogger } from 'fastify';
import type { AudioContent, ResourceLink, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
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
 * what clients that go further can use: audio to hear, links to the sounds' resources.
 */
export interface ToolAnswer<O> {
  structured: O;
  text: string;
  audio?: AudioContent;
  /** `sound://{id}` links to every sound the answer names (sound-links.ts). */
  links?: ResourceLink[];
}

/**
 * One MCP tool, declared once: name, documentation for the agent, input and output schemas,
 * annotations and what it does. `server.ts` turns it into a registered tool; failures are
 * thrown as DomainError (not_found, invalid) and become `isError` results there. `R` is the
 * answer `run` gives.
 */
export interface SoundTool<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodObject = z.ZodObject,
  R = ToolAnswer<z.output<O>>,
> {
  name: string;
  title: string;
  description: string;
  inputSchema: I;
  /**
   * The structured answer's shape, when it is fixed. Tools answering with sounds leave it out: their
   * shape follows `detail`, and an agent reads the answer's text, not a schema, to choose.
   */
  outputSchema?: O;
  annotations: ToolAnnotations;
  run(args: z.output<I>, context: CallContext): Promise<R>;
}

/**
 * Keeps a tool's schema types tied to its `run` while the list of tools stays uniform. Its
 * structured answer is read through the output schema before it is sent (server.ts), so only the
 * fields the schema lists reach a client.
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: SoundTool<I, O>): SoundTool {
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
