import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import type { NodeOrigins } from './node-origins';

/**
 * Security headers on every answer. The SPA loads only its own scripts; `connect-src` names the
 * origins of the nodes it talks to directly (signed transfers, the console websocket), ws and wss
 * included, as they are now: a node added while the panel runs is allowed without a restart.
 * A local node is served on the panel's own origin, which 'self' already covers. Downloads are
 * navigations, which connect-src does not govern.
 */
export async function registerSecurityHeaders(app: FastifyInstance, nodeOrigins: NodeOrigins, secure: boolean): Promise<void> {
  // Before helmet's own hook, which writes the header.
  app.addHook('onRequest', async () => nodeOrigins.refresh());
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'", () => nodeOrigins.current().join(' ')],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // Only meaningful, and only safe to promise, when the panel is really served over HTTPS.
    strictTransportSecurity: secure ? { maxAge: 15_552_000, includeSubDomains: false } : false,
    // The SPA embeds no cross-origin documents, but avatars come from Gravatar.
    crossOriginEmbedderPolicy: false,
  });
  // Nothing the panel answers may be kept by a browser or a proxy cache: API documents, file
  // contents and error bodies are someone's private data. The SPA's own files say otherwise
  // explicitly (hashed assets forever, the page revalidated).
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
}
