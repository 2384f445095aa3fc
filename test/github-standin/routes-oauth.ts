// GitHub's OAuth web flow for people (consent page, code, user token) and the user API the
// permission mirror reads: GET /user, /user/repos, /user/installations(/{id}/repositories).
import express, { Router, type Request, type Response } from 'express';
import { ownerType, urlsOf, type StandInContext } from './context';
import { sendError } from './http';
import { paginate } from './paginate';
import { loadRepoFacts, repoJson, userJson } from './repo-json';
import { presentedToken } from './auth';
import { apiChain } from './route-kit';
import { s256, type Permission, type StandInUser, type UserStore } from './users';

const OAUTH_DOCS = 'https://docs.github.com/apps/oauth-apps/maintaining-oauth-apps/troubleshooting-oauth-app-access-token-request-errors';

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface AuthorizeParams {
  client_id: string;
  redirect_uri: string;
  state: string;
  scope: string;
  code_challenge: string;
  code_challenge_method: string;
}

function authorizeParams(source: Record<string, unknown>): AuthorizeParams {
  const s = (name: string) => (typeof source[name] === 'string' ? source[name] : '');
  return { client_id: s('client_id'), redirect_uri: s('redirect_uri'), state: s('state'), scope: s('scope'), code_challenge: s('code_challenge'), code_challenge_method: s('code_challenge_method') };
}

function consentPage(params: AuthorizeParams, problem: string | null): string {
  const hidden = Object.entries(params)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escape(value)}">`)
    .join('\n      ');
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Authorize application · GitHub stand-in</title></head>
  <body>
    <main>
      <h1>Authorize ${escape(params.client_id)}</h1>
      <p>The application wants to know who you are and which repositories you can read.</p>
      ${problem ? `<p role="alert">${escape(problem)}</p>` : ''}
      <form method="post" action="/login/oauth/authorize">
      ${hidden}
      <label for="login">Sign in as</label>
      <input id="login" name="login" autocomplete="username" required>
      <button type="submit" name="decision" value="approve">Authorize</button>
      <button type="submit" name="decision" value="deny" formnovalidate>Cancel</button>
      </form>
    </main>
  </body>
</html>`;
}

function redirectWith(res: Response, redirectUri: string, values: Record<string, string>): void {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(values)) if (value !== '') url.searchParams.set(name, value);
  res.redirect(302, url.toString());
}

/** GitHub answers token errors with 200 and an `error` field, JSON or form-encoded by the Accept header. */
function tokenAnswer(req: Request, res: Response, body: Record<string, string | number>): void {
  if ((req.get('accept') ?? '').includes('application/json')) {
    res.status(200).json(body);
    return;
  }
  res
    .status(200)
    .type('application/x-www-form-urlencoded')
    .send(new URLSearchParams(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]))).toString());
}

export function oauthRouter(ctx: StandInContext, users: UserStore): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '64kb' });
  const json = express.json({ limit: '64kb' });

  const approve = (res: Response, params: AuthorizeParams, login: string | undefined, decision: string | undefined): void => {
    if (decision === 'deny') return redirectWith(res, params.redirect_uri, { error: 'access_denied', error_description: 'The user has denied your application access.', state: params.state });
    const user = login ? users.user(login) : undefined;
    if (!user) {
      res
        .status(200)
        .type('html')
        .send(consentPage(params, login ? `No user ${login} on this stand-in (POST /_admin/users first).` : null));
      return;
    }
    const code = users.issueCode({ login: user.login, clientId: params.client_id, redirectUri: params.redirect_uri || null, challenge: params.code_challenge || null, scope: params.scope });
    redirectWith(res, params.redirect_uri, { code, state: params.state });
  };

  const checkAuthorize = (res: Response, params: AuthorizeParams): boolean => {
    if (!params.client_id || !users.knownClient(params.client_id)) {
      res.status(404).type('html').send('<!doctype html><title>Not Found</title><p>No application with this client_id.</p>');
      return false;
    }
    if (params.code_challenge && params.code_challenge_method !== 'S256') {
      res.status(400).type('html').send('<!doctype html><title>Bad request</title><p>code_challenge_method must be S256.</p>');
      return false;
    }
    if (!/^https?:\/\//.test(params.redirect_uri)) {
      res.status(400).type('html').send('<!doctype html><title>Bad request</title><p>redirect_uri must be an http(s) URL.</p>');
      return false;
    }
    return true;
  };

  /** The consent page; `login=NAME` in the query approves at once as that person (for tests). */
  router.get('/login/oauth/authorize', (req, res) => {
    const params = authorizeParams(req.query);
    if (!checkAuthorize(res, params)) return;
    if (typeof req.query.login === 'string' && req.query.login !== '') return approve(res, params, req.query.login, 'approve');
    res.status(200).type('html').send(consentPage(params, null));
  });
  router.post('/login/oauth/authorize', form, (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const params = authorizeParams(body);
    if (!checkAuthorize(res, params)) return;
    approve(res, params, typeof body.login === 'string' ? body.login : undefined, typeof body.decision === 'string' ? body.decision : undefined);
  });

  router.post('/login/oauth/access_token', form, json, (req, res) => {
    const body = { ...(req.query as Record<string, unknown>), ...((req.body ?? {}) as Record<string, unknown>) };
    const s = (name: string) => (typeof body[name] === 'string' ? body[name] : '');
    const clientId = s('client_id');
    if (!users.clientAccepted(clientId, s('client_secret') || undefined)) {
      return tokenAnswer(req, res, { error: 'incorrect_client_credentials', error_description: 'The client_id and/or client_secret passed are incorrect.', error_uri: OAUTH_DOCS });
    }
    const grant = s('grant_type') || 'authorization_code';
    if (grant === 'refresh_token') {
      const entry = users.takeRefreshToken(s('refresh_token'), clientId);
      if (!entry) return tokenAnswer(req, res, { error: 'bad_refresh_token', error_description: 'The refresh token passed is incorrect or expired.', error_uri: OAUTH_DOCS });
      return tokenAnswer(req, res, users.issueToken(entry.login, clientId, entry.scope));
    }
    if (grant !== 'authorization_code') return tokenAnswer(req, res, { error: 'unsupported_grant_type', error_description: `grant_type ${grant} is not supported.`, error_uri: OAUTH_DOCS });
    const code = users.takeCode(s('code'));
    if (!code || code.clientId !== clientId) return tokenAnswer(req, res, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.', error_uri: OAUTH_DOCS });
    if (code.redirectUri && s('redirect_uri') && s('redirect_uri') !== code.redirectUri) {
      return tokenAnswer(req, res, { error: 'redirect_uri_mismatch', error_description: 'The redirect_uri MUST match the registered callback URL for this application.', error_uri: OAUTH_DOCS });
    }
    if (code.challenge && s256(s('code_verifier')) !== code.challenge) {
      return tokenAnswer(req, res, { error: 'bad_verification_code', error_description: 'The code_verifier does not match the code_challenge.', error_uri: OAUTH_DOCS });
    }
    tokenAnswer(req, res, users.issueToken(code.login, clientId, code.scope));
  });

  /** DELETE /applications/{client_id}/token: an app revokes one user token (basic auth with its id and secret). */
  router.delete('/applications/:client_id/token', json, (req, res) => {
    const clientId = String(req.params.client_id);
    const basic = /^basic\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    const [id, secret] = basic
      ? Buffer.from(basic[1] as string, 'base64')
          .toString('utf8')
          .split(':')
      : [];
    if (id !== clientId || !users.clientAccepted(clientId, secret)) return sendError(res, 404, 'Not Found');
    const token = (req.body as { access_token?: unknown } | undefined)?.access_token;
    if (typeof token !== 'string' || !users.revokeToken(token, clientId)) return sendError(res, 404, 'Not Found');
    res.status(204).end();
  });

  const chain = apiChain(ctx, { auth: false });
  const person = (req: Request, res: Response): StandInUser | null => {
    const token = presentedToken(req);
    const user = token ? users.tokenOwner(token) : null;
    if (!user) sendError(res, 401, 'Bad credentials');
    return user;
  };
  /** Every repository the person has explicit access to, with GitHub's `permissions` object. */
  const readable = async (user: StandInUser) => {
    const out: Record<string, unknown>[] = [];
    for (const repo of await ctx.store.list()) {
      const permission = users.permission(user.login, repo);
      if (!permission) continue;
      out.push({ ...repoJson(repo, await loadRepoFacts(repo), urlsOf(ctx), ownerType(ctx, repo.owner)), permissions: permissionsJson(permission) });
    }
    return out.sort((a, b) => String(a.full_name).localeCompare(String(b.full_name)));
  };

  router.get('/user', ...chain, (req, res) => {
    const user = person(req, res);
    if (user) res.json({ ...userJson(user.login, 'User', urlsOf(ctx)), name: user.login, email: null });
  });
  // A machine token (the stand-in's own, an installation's) skips to reposRouter's /user/repos: every repository.
  const peopleOnly: express.RequestHandler = (req, _res, next) => {
    const token = presentedToken(req);
    // ghu_ is GitHub's prefix for user tokens: an ended one is refused here, not taken as a machine's.
    next(token && (users.tokenOwner(token) || token.startsWith('ghu_')) ? undefined : 'route');
  };
  router.get('/user/repos', peopleOnly, ...chain, async (req, res) => {
    const user = person(req, res);
    if (user) res.json(paginate(req, res, await readable(user)));
  });
  router.get('/user/installations', ...chain, (req, res) => {
    const user = person(req, res);
    if (!user) return;
    const id = ctx.config.installationId ?? 1;
    const installation = { id, app_id: 1, app_slug: 'gitdex-standin', repository_selection: 'all', target_type: 'Organization', permissions: { contents: 'read', metadata: 'read' } };
    res.json({ total_count: 1, installations: [installation] });
  });
  router.get('/user/installations/:id/repositories', ...chain, async (req, res) => {
    const user = person(req, res);
    if (!user) return;
    if (Number(req.params.id) !== (ctx.config.installationId ?? 1)) return sendError(res, 404, 'Not Found');
    const repositories = await readable(user);
    res.json({ total_count: repositories.length, repository_selection: 'all', repositories: paginate(req, res, repositories) });
  });
  return router;
}

function permissionsJson(p: Permission) {
  const rank = ['read', 'triage', 'write', 'maintain', 'admin'].indexOf(p);
  return { admin: rank >= 4, maintain: rank >= 3, push: rank >= 2, triage: rank >= 1, pull: true };
}
