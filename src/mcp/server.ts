import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../errors.ts';
import { SERVER_INSTRUCTIONS } from './field-guide.ts';
import { soundPrompts } from './prompts/index.ts';
import { registerSoundResources } from './resources/sound-resource.ts';
import type { CallContext, SoundTool, ToolContext } from './tool.ts';
import {
  errorResult,
  INTERNAL_ERROR_MESSAGE,
  quotaExceededResult,
  successResult,
  withRateLimit,
} from './tool-result.ts';
import { soundTools } from './tools/index.ts';

const SERVER_INFO = { name: 'sound-catalog', title: 'Sound Catalog', version: '1.0.0' };
/**
 * Built once: otherwise every per-request server builds its own Ajv (with formats), which was
 * the largest single cost of a tool call. The servers never use it (no elicitation) and it
 * keeps no per-request state.
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/**
 * One MCP server for one HTTP request (the stateless pattern): cheap to build, and it carries
 * the caller and the quota already counted for this request's tool calls and resource reads.
 */
export function buildMcpServer(context: ToolContext): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: SERVER_INSTRUCTIONS, jsonSchemaValidator });
  for (const tool of soundTools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: tool.annotations,
      },
      async (args, extra) => {
        const decision = context.quota.decisionFor(extra.requestId);
        return withRateLimit(await callTool(tool, args, { ...context, decision }), decision);
      },
    );
  }
  registerSoundResources(server, context);
  for (const prompt of soundPrompts) {
    server.registerPrompt(
      prompt.name,
      { title: prompt.title, description: prompt.description, argsSchema: prompt.argsSchema },
      (args) => ({
        description: prompt.description,
        messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args) } }],
      }),
    );
  }
  return server;
}

async function callTool(tool: SoundTool, args: unknown, context: CallContext): Promise<CallToolResult> {
  if (!context.decision.allowed) return quotaExceededResult(context.decision);
  try {
    return successResult(await tool.run(args as Parameters<SoundTool['run']>[0], context));
  } catch (error) {
    // Domain messages are written for users; anything else stays in the log, as on REST.
    if (error instanceof DomainError) return errorResult(error.message);
    context.log.error({ err: error, tool: tool.name }, 'MCP tool failed');
    return errorResult(INTERNAL_ERROR_MESSAGE);
  }
}
