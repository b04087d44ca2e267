import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import * as z from 'zod/mini';
import type { AppDeps } from './deps';
import { API_PREFIXES, registerAuthentication } from './http/authenticate';
import { connectionOptions, registerConnectionHandling } from './http/connections';
import { fromZodError, HttpError, notFound } from './http/errors';
import { registerJsonBody } from './http/json-body';
import { keepPeerAddresses } from './http/peer-address';
import { capConnections } from './lib/connection-caps';
import { registerApiRateLimit } from './http/rate-limit';
import { registerSecurityHeaders } from './http/security-headers';
import { nodeOrigins } from './http/node-origins';
import { nodeHealthMonitor, type NodeHealthMonitor } from './services/node-health';
import './http/request-context';
import { handleDaemonEvent } from './services/daemon-events';
import { Scheduler } from './services/scheduler';
import { scheduleRoutes } from './routes/schedules';
import { accountRoutes } from './routes/account';
import { accountSettingsRoutes } from './routes/account-settings';
import { activityRoutes } from './routes/activity';
import { authRoutes } from './routes/auth';
import { passwordResetRoutes } from './routes/password-reset';
import { backupRoutes } from './routes/backups';
import { consoleRoutes } from './routes/console';
import { fileRoutes } from './routes/files';
import { networkRoutes } from './routes/network';
import { subuserRoutes } from './routes/subusers';
import { databaseRoutes } from './routes/databases';
import { serverRoutes } from './routes/servers';
import { startupRoutes } from './routes/startup';
import { settingsRoutes } from './routes/settings';
import { websocketRoutes } from './routes/websocket';
import { remoteRoutes } from './routes/remote';
import { applicationUserRoutes } from './routes/application-users';
import { applicationLocationRoutes } from './routes/application-locations';
import { applicationNodeRoutes } from './routes/application-nodes';
import { applicationServerRoutes } from './routes/application-servers';
import { applicationServerTransferRoutes } from './routes/application-server-transfer';
import { applicationOverviewRoutes } from './routes/application-overview';
import { applicationActivityRoutes } from './routes/application-activity';
import { applicationSettingsRoutes, panelInfoRoutes } from './routes/application-settings';
import { applicationDatabaseHostRoutes } from './routes/application-database-hosts';
import { applicationApiKeyRoutes } from './routes/application-api-keys';
import { registerTwoFactorPolicy } from './http/two-factor-policy';
import { applicationEggRoutes } from './routes/application-eggs';
import { applicationEggWriteRoutes } from './routes/application-egg-writes';
import { ADMIN_ROUTE_PREFIX } from '../src/contract/endpoint';
import { publicOrigin } from './http/origin';
import { readableLogStream } from './lib/log-lines';

export interface BuildAppOptions extends AppDeps {
  /** Directory of the built SPA; when absent or missing only the API is served. */
  spaDir?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    scheduler: Scheduler;
    nodeHealth: NodeHealthMonitor;
  }
}

/** Builds the API (and SPA) server. Never listens: `main.ts` does, tests use `inject`. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const nodeHealth = nodeHealthMonitor({ db: options.db, daemons: options.nodes, now: () => options.clock.now() });
  const deps: AppDeps = { config: options.config, db: options.db, nodes: options.nodes, clock: options.clock, nodeHealth };
  const app = Fastify({
    logger: options.config.logLevel === 'silent' ? false : { level: options.config.logLevel, stream: readableLogStream },
    bodyLimit: options.config.maxBodyBytes,
    trustProxy: options.config.trustProxy,
    // `filter[name]=x` stays one literal key; arrays are not built from repeated keys.
    routerOptions: { ignoreTrailingSlash: true },
    ...connectionOptions(options.config),
  });

  keepPeerAddresses(app.server);
  // Behind a proxy every connection comes from the proxy: only the total is capped, the proxy caps each client.
  capConnections(app.server, { ...options.config.connections, perAddress: options.config.trustProxy ? 0 : options.config.connections.perAddress });
  registerConnectionHandling(app);
  await app.register(cookie);
  registerJsonBody(app);
  app.decorateRequest('caller', null);

  // What the node reports back (an install finished, a user uploaded through a signed link).
  const unsubscribe = deps.nodes.local.events.subscribe((event) =>
    handleDaemonEvent({ db: deps.db, clock: deps.clock, warn: (m) => app.log.warn(m), daemons: deps.nodes }, event),
  );
  app.addHook('onClose', async () => unsubscribe());

  app.decorate('nodeHealth', nodeHealth);
  nodeHealth.start();
  app.addHook('onClose', async () => nodeHealth.stop());

  const scheduler = new Scheduler({ ...deps, warn: (m) => app.log.warn(m) });
  app.decorate('scheduler', scheduler);
  app.addHook('onClose', async () => scheduler.stop());

  await registerSecurityHeaders(app, nodeOrigins(deps.db), deps.config.secureCookies);

  app.setErrorHandler((error, request, reply) => {
    let http: HttpError;
    if (error instanceof HttpError) http = error;
    else if (error instanceof z.core.$ZodError) http = fromZodError(error);
    else {
      const status = typeof (error as { statusCode?: unknown }).statusCode === 'number' ? (error as { statusCode: number }).statusCode : 500;
      const code = (error as { code?: unknown }).code;
      if (status === 413 || code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        http = new HttpError(413, 'PayloadTooLargeHttpException', 'The request body is too large.');
      } else if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        http = new HttpError(415, 'UnsupportedMediaTypeHttpException', 'The request body has an unsupported content type.');
      } else if (typeof code === 'string' && code.startsWith('FST_ERR_CTP_')) {
        http = new HttpError(400, 'BadRequestHttpException', 'The JSON payload is malformed.');
      } else if (status >= 400 && status < 500) {
        http = new HttpError(status, 'HttpException', error instanceof Error ? error.message : 'Bad request.');
      } else {
        request.log.error({ err: error }, 'unhandled error');
        http = new HttpError(500, 'InternalServerError', 'An unexpected error was encountered while processing this request, please try again.');
      }
    }
    if (http.headers) reply.headers(http.headers);
    return reply.status(http.status).type('application/json; charset=utf-8').send(http.toDocument());
  });

  // A node served by this process answers its signed links on the panel's origin, as Wings would on its own.
  if (deps.nodes.localRoutes) await deps.nodes.localRoutes.mount(app, { panelOrigin: (request) => publicOrigin(request, deps.config.appUrl) });

  // The HTTP surfaces, each a route group with its own authenticator: the client API and the
  // browser's session routes (a session or a `ptlc_` key), the application API, and the remote
  // API nodes call.
  await app.register(async (api) => {
    registerAuthentication(api, deps);
    registerTwoFactorPolicy(api, deps);
    await registerApiRateLimit(api, deps.config.apiRateLimit, '/api/client');
    await panelInfoRoutes(api, deps);
    await authRoutes(api, deps);
    await passwordResetRoutes(api, deps);
    await accountRoutes(api);
    await accountSettingsRoutes(api, deps);
    await serverRoutes(api, deps);
    await activityRoutes(api, deps);
    await fileRoutes(api, deps);
    await consoleRoutes(api, deps);
    await networkRoutes(api, deps);
    await subuserRoutes(api, deps);
    await databaseRoutes(api, deps);
    await startupRoutes(api, deps);
    await settingsRoutes(api, deps);
    await backupRoutes(api, deps);
    await scheduleRoutes(api, deps, scheduler);
    await websocketRoutes(api, deps);
  });
  // The application API (billing systems with a root admin's `ptla_` key) and the SPA's admin area
  // (a root admin's session): admin routes only, each checked by `adminRoute`.
  await app.register(async (application) => {
    registerAuthentication(application, deps, 'application');
    await registerApiRateLimit(application, deps.config.apiApplicationRateLimit, ADMIN_ROUTE_PREFIX);
    await applicationUserRoutes(application, deps);
    await applicationLocationRoutes(application, deps);
    await applicationNodeRoutes(application, deps);
    await applicationServerRoutes(application, deps);
    await applicationServerTransferRoutes(application, deps);
    await applicationOverviewRoutes(application, deps);
    await applicationActivityRoutes(application, deps);
    await applicationSettingsRoutes(application, deps);
    await applicationDatabaseHostRoutes(application, deps);
    await applicationApiKeyRoutes(application, deps);
    await applicationEggRoutes(application, deps);
    await applicationEggWriteRoutes(application, deps);
  });
  await app.register(async (remote) => remoteRoutes(remote, deps), { prefix: '/api/remote' });

  const spaDir = options.spaDir;
  const indexFile = spaDir ? path.join(spaDir, 'index.html') : undefined;
  if (spaDir && indexFile && fs.existsSync(indexFile)) {
    await app.register(fastifyStatic, { root: spaDir, wildcard: false, index: false, serve: true, cacheControl: false });
    // Read at every page load (it is small): a `dist/` rebuilt under a running panel (`npm run
    // build`, an e2e run) names new asset files, and an old copy would point at deleted ones.
    // While a build has it missing, the last copy read is served.
    let indexHtml = fs.readFileSync(indexFile);
    const currentIndex = async () => {
      indexHtml = await fs.promises.readFile(indexFile).catch(() => indexHtml);
      return indexHtml;
    };
    app.get('/assets/*', async (request, reply) => {
      // Hashed file names never change, so they may be cached for good.
      const rel = (request.params as { '*': string })['*'];
      reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      return reply.sendFile(path.join('assets', rel));
    });
    app.setNotFoundHandler(async (request, reply) => {
      const isApi = API_PREFIXES.some((p) => request.url.startsWith(p)) && request.method !== 'GET';
      if (request.method === 'GET' && !request.url.startsWith('/api/') && !request.url.startsWith('/sanctum/') && !isApi) {
        return reply
          .type('text/html; charset=utf-8')
          .header('Cache-Control', 'no-cache')
          .send(await currentIndex());
      }
      throw notFound('The requested route could not be found.');
    });
  } else {
    app.setNotFoundHandler(() => {
      throw notFound('The requested route could not be found.');
    });
  }

  return app;
}
