// createGitHubStandIn: an express server that plays GitHub's REST API and webhooks for gitdex,
// serving the committed state of git repositories under <root>/<owner>/<repo>.
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { resolveConfig, type GitHubStandInOptions, type StandInConfig, type StandInContext } from './context';
import { FaultStore } from './faults';
import { errorHandler, githubHeaders, notFound, sendJson } from './http';
import { RateLimiter } from './rate-limit';
import { RepoStore, type RepoHandle } from './repo-store';
import { RequestLog, requestLogMiddleware } from './request-log';
import { apiChain, repositoriesById } from './route-kit';
import { ROUTES } from './route-patterns';
import { adminErrors, adminRouter, applyConfig, type ConfigPatch } from './routes-admin';
import { adminReposRouter, deleteRepo, renameRepo, updateRepo, type RepoAdminResult } from './routes-admin-repos';
import { appRouter } from './routes-app';
import { commitsRouter } from './routes-commits';
import { compareRouter } from './routes-compare';
import { gitRouter } from './routes-git';
import { adminPullsRouter, pullsRouter } from './routes-pulls';
import { graphqlRouter } from './routes-graphql';
import { reposRouter } from './routes-repos';
import { tarballRouter } from './routes-tarball';
import { deliverAllPushes, deliverPush, type PushOptions, type PushResult } from './push-delivery';
import { WebhookSender, type DeliveryRecord } from './webhooks';
import { adminUsersRouter } from './routes-admin-users';
import { oauthRouter } from './routes-oauth';
import { UserStore } from './users';

export type { GitHubStandInOptions, StandInConfig } from './context';

export interface GitHubStandIn {
  /** e.g. http://127.0.0.1:53211 — use as Octokit baseUrl. */
  url: string;
  port: number;
  root: string;
  config: StandInConfig;
  faults: FaultStore;
  requests: RequestLog;
  deliveries: WebhookSender;
  rateLimit: RateLimiter;
  repos: RepoStore;
  /** People, teams, organisation members and OAuth state (POST /_admin/users, /_admin/teams, /login/oauth/*). */
  users: UserStore;
  /** Changes runtime settings (same as POST /_admin/config; null clears a setting). */
  configure(patch: ConfigPatch): void;
  /** The stable numeric id of a repository (registers it on first use). */
  repoId(owner: string, repo: string): Promise<number>;
  /** Delivers the push webhook for `ref` since its last delivery (see POST /_admin/repos/{o}/{r}/push). */
  push(owner: string, repo: string, options?: PushOptions): Promise<PushResult>;
  /** Delivers pushes for every ref that changed since its last delivery. */
  pushAll(owner: string, repo: string): Promise<PushResult[]>;
  deliver(event: string, payload: unknown): Promise<DeliveryRecord>;
  redeliver(deliveryId: string): Promise<DeliveryRecord>;
  rename(owner: string, repo: string, to: { newOwner?: string | undefined; newName?: string | undefined; deliver?: boolean | undefined }): Promise<RepoAdminResult>;
  remove(owner: string, repo: string, options?: { deliver?: boolean | undefined }): Promise<RepoAdminResult>;
  setVisibility(owner: string, repo: string, isPrivate: boolean, options?: { deliver?: boolean | undefined }): Promise<RepoAdminResult>;
  close(): Promise<void>;
}

export async function createGitHubStandIn(options: GitHubStandInOptions): Promise<GitHubStandIn> {
  const config = resolveConfig(options);
  const ctx: StandInContext = {
    config,
    store: new RepoStore(options.root, options.stateFile),
    faults: new FaultStore(),
    rateLimiter: new RateLimiter(options.rateLimit?.limit, options.rateLimit?.windowSeconds),
    requests: new RequestLog(),
    webhooks: new WebhookSender(() => ({ url: config.webhookUrl, secret: config.secret, hookId: config.hookId, timeoutMs: config.deliveryTimeoutMs })),
    mintedTokens: new Set(),
    apiUrl: '',
    ...(options.archiveCacheDir ? { archiveCacheDir: options.archiveCacheDir } : {}),
    sleep: options.sleep ?? ((ms) => sleep(ms)),
  };

  const users = new UserStore();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(githubHeaders);
  const adminNotFound: express.RequestHandler = (req, res) => void res.status(404).json({ message: `No admin route ${req.method} ${req.path}` });
  app.use('/_admin', adminRouter(ctx), adminReposRouter(ctx), adminPullsRouter(ctx), adminUsersRouter(ctx, users), adminNotFound, adminErrors);
  const log = requestLogMiddleware(ctx.requests);
  app.use(log);
  if (options.onRequestLog) {
    const print = options.onRequestLog;
    app.use((req, res, next) => {
      res.on('finish', () => print(`${req.method} ${req.originalUrl} -> ${res.statusCode}`));
      next();
    });
  }
  app.get(ROUTES.rateLimit, ...apiChain(ctx, { rateLimit: false }), (req, res) => {
    ctx.rateLimiter.setHeaders(res); // GET /rate_limit does not count against the limit
    sendJson(req, res, 200, ctx.rateLimiter.body());
  });
  app.use(repositoriesById(ctx));
  // Before reposRouter: a person's token gets their own /user/repos; any other token falls through to it.
  app.use(oauthRouter(ctx, users));
  app.use(reposRouter(ctx), commitsRouter(ctx), compareRouter(ctx), gitRouter(ctx), tarballRouter(ctx), appRouter(ctx), pullsRouter(ctx), graphqlRouter(ctx));
  app.use(...apiChain(ctx), () => {
    throw notFound();
  });
  app.use(errorHandler);

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port ?? 0, options.host ?? '127.0.0.1', (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  ctx.apiUrl = `http://${host}:${port}`;

  const find = async (owner: string, repo: string): Promise<RepoHandle> => {
    const handle = await ctx.store.find(owner, repo);
    if (!handle) throw new Error(`No repository ${owner}/${repo} under ${options.root}`);
    return handle;
  };

  return {
    url: ctx.apiUrl,
    port,
    root: options.root,
    config,
    faults: ctx.faults,
    requests: ctx.requests,
    deliveries: ctx.webhooks,
    rateLimit: ctx.rateLimiter,
    repos: ctx.store,
    users,
    configure: (patch) => applyConfig(ctx, patch),
    repoId: async (owner, repo) => (await find(owner, repo)).id,
    push: async (owner, repo, pushOptions) => deliverPush(ctx, await find(owner, repo), pushOptions),
    pushAll: async (owner, repo) => deliverAllPushes(ctx, await find(owner, repo)),
    deliver: (event, payload) => ctx.webhooks.deliver(event, payload),
    redeliver: (id) => ctx.webhooks.redeliver(id),
    rename: (owner, repo, to) => renameRepo(ctx, owner, repo, to),
    remove: (owner, repo, removeOptions) => deleteRepo(ctx, owner, repo, removeOptions?.deliver),
    setVisibility: (owner, repo, isPrivate, visibilityOptions) => updateRepo(ctx, owner, repo, { private: isPrivate, deliver: visibilityOptions?.deliver }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
