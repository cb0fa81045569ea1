import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';

/** Mounts the web dashboard at / and /dashboard. */
export function registerDashboard(_app: FastifyInstance, _services: Services): void {}
