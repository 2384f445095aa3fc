import express, { type Router } from 'express';
import { mcpAuthMetadataRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { GitHubSignInError } from './github-oauth';
import type { SignInProvider } from './provider';

export interface SignInRouterOptions {
  /** gitdex's public URL (GITDEX_PUBLIC_URL): issuer and protected resource. */
  publicUrl: URL;
  /**
   * Requests per 15 minutes per address at each OAuth endpoint (the SDK's express-rate-limit).
   * The SDK's defaults (100 authorize, 50 token) are per address, and behind a proxy every
   * client shares one; default 1000.
   */
  perAddressLimit?: number;
}

/** The scope a gitdex token carries: reading what its person may read. */
export const SIGN_IN_SCOPES = ['read'];

/** Where the protected resource metadata (RFC 9728) is served, for the 401 challenge. */
export function resourceMetadataUrl(publicUrl: URL): string {
  return new URL('/.well-known/oauth-protected-resource', publicUrl).href;
}

/**
 * gitdex's authorization server and protected resource metadata, built from the MCP SDK's
 * own handlers (they check request shapes, PKCE S256, redirect URIs and client secrets) at
 * /oauth/*, plus the callback GitHub sends the person back to.
 */
export function createSignInRouter(provider: SignInProvider, options: SignInRouterOptions): Router {
  const at = (path: string) => new URL(path, options.publicUrl).href;
  const issuer = new URL('/', options.publicUrl).href;
  const metadata: OAuthMetadata = {
    issuer,
    authorization_endpoint: at('/oauth/authorize'),
    token_endpoint: at('/oauth/token'),
    registration_endpoint: at('/oauth/register'),
    revocation_endpoint: at('/oauth/revoke'),
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_post', 'none'],
    scopes_supported: SIGN_IN_SCOPES,
  };
  const rateLimit = { windowMs: 15 * 60_000, max: options.perAddressLimit ?? 1000 };
  const router = express.Router();
  router.use(mcpAuthMetadataRouter({ oauthMetadata: metadata, resourceServerUrl: new URL(issuer), scopesSupported: SIGN_IN_SCOPES, resourceName: 'gitdex' }));
  // Clients that look the metadata up under the MCP endpoint's path (RFC 9728 §3.1) find the same document.
  router.use('/.well-known/oauth-protected-resource/mcp', metadataHandler({ resource: issuer, authorization_servers: [issuer], scopes_supported: SIGN_IN_SCOPES, resource_name: 'gitdex' }));
  router.use('/oauth/authorize', authorizationHandler({ provider, rateLimit }));
  router.use('/oauth/token', tokenHandler({ provider, rateLimit }));
  router.use('/oauth/register', clientRegistrationHandler({ clientsStore: provider.clientsStore, rateLimit }));
  router.use('/oauth/revoke', revocationHandler({ provider, rateLimit }));
  // Who a gitdex access token belongs to (the console shows it); 401 for any other token.
  router.get('/oauth/me', (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    provider
      .verifyAccessToken(token)
      .then((info) => res.json({ login: info.extra?.login, user_id: info.extra?.userId, client_id: info.clientId, expires_at: info.expiresAt }))
      .catch((error: unknown) => {
        if (error instanceof InvalidTokenError) res.status(401).json(error.toResponseObject());
        else next(error);
      });
  });
  router.get('/oauth/callback', (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    provider
      .completeSignIn(req.query)
      .then((outcome) => {
        if ('redirect' in outcome) res.redirect(302, outcome.redirect);
        else res.status(outcome.page.status).type('text/plain').send(outcome.page.message);
      })
      .catch((error: unknown) => {
        if (error instanceof GitHubSignInError) res.status(400).type('text/plain').send(error.message);
        else next(error);
      });
  });
  return router;
}
