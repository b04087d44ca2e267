import type { FastifyRequest } from 'fastify';
import { panelOrigin, type Config } from '../config';

/** This panel's public origin: APP_URL when set, else the origin the request came to. */
export function publicOrigin(request: FastifyRequest, appUrl: string | undefined): string {
  return appUrl ? appUrl.replace(/\/+$/, '') : `${request.protocol}://${request.host}`;
}

/**
 * `panelOrigin` for a link mailed while answering a request, on the port this panel really listens
 * on (PORT=0 takes a free one), as the start-up box says; an app that only answers `inject` keeps PORT.
 */
export function mailedOrigin(request: FastifyRequest, config: Pick<Config, 'appUrl' | 'host' | 'port'>): string {
  const address = request.server.server.address();
  return panelOrigin(typeof address === 'object' && address !== null ? { ...config, port: address.port } : config);
}
