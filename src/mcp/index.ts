import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';

/** Mounts the MCP server (Streamable HTTP) at /mcp. */
export function registerMcp(_app: FastifyInstance, _services: Services): void {}
