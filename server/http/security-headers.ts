import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/**
 * Security headers on every answer. The SPA loads only its own scripts; `connect-src` names the
 * origins of the nodes it talks to directly (signed transfers, the console websocket), ws and wss
 * included. A local node is served on the panel's own origin, which 'self' already covers.
 */
export async function registerSecurityHeaders(app: FastifyInstance, nodeOrigins: readonly string[], secure: boolean): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'", ...nodeOrigins],
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

/** `https://node:8080` → itself plus `wss://node:8080`, for connect-src. */
export function connectOrigins(baseUrls: readonly string[]): string[] {
  const out: string[] = [];
  for (const base of baseUrls) {
    let url: URL;
    try {
      url = new URL(base);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    out.push(url.origin, `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`);
  }
  return out;
}
