import type { FastifyRequest } from 'fastify';

/** This panel's public origin: APP_URL when set, else the origin the request came to. */
export function publicOrigin(request: FastifyRequest, appUrl: string | undefined): string {
  return appUrl ? appUrl.replace(/\/+$/, '') : `${request.protocol}://${request.host}`;
}
