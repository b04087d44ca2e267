import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app';

export async function fileRoutes(_app: FastifyInstance, _deps: AppDeps): Promise<void> {}
