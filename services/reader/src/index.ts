export { createReaderApp, createReaderRouter, type ReaderHttpOptions } from './app';
export { DEFAULT_LIMITS, publicOnly, resolveDeps, type Principal, type ReaderDeps, type ReaderLimits, type ReaderOptions } from './deps';
export { patternMatches, readablePatterns, scopedAccess } from './access';
export {
  PermissionMirror,
  type PermissionMirrorOptions,
  type SignedInPerson,
  type RevocationListener,
  type GitHubUserAccess,
  type GitHubPerson,
  type GitHubTokenSource,
  GitHubTokenRefused,
  isTokenRefused,
  type PersonPrincipal,
  personPrincipal,
  isPersonPrincipal,
  personAccess,
  startPermissionRefresh,
  type RefreshLoopOptions,
  MemoryPermissionStore,
} from './people';
export { bearerTokens, parseReaderTokens, readerTokenEntries, type Authenticate } from './http/auth';
export { allowedHostsFor, hostAllowed } from './http/host';
export { originAllowed } from './http/origin';
export { RateLimiter, type RateLimitOptions } from './http/rate-limit';
export { createMcpRouter, type McpHttpOptions } from './mcp/http';
export { connectMcpServer } from './mcp/connect';
export { createMcpServer, type McpServerContext } from './mcp/server';
export { runStdio, type StdioOptions } from './mcp/stdio';
export { auditLog, auditRecord, parseAuditDestination, type AuditDestination, type AuditLog, type AuditRecord } from './audit';
export { callerMetrics, DEFAULT_CALLER_LABELS } from './caller-metrics';
export { readAheadMetrics, readerMetrics } from './metrics';
export { createRestRouter, type RestOptions } from './rest/router';
export { openApiDocument } from './rest/openapi';
export { rankPaths, type RankedPath, type SuggestReason } from './suggest/rank';
export { callTool, type ObservedCall, type ToolObserver, type ToolOutcome } from './tools/call-tool';
export { TOOLS } from './tools/registry';
export { ToolError, HTTP_STATUS } from './tool-error';
export { composeIndex, type ComposeOptions } from './index-layers/compose';
export { type ReadAheadLoad } from './index-layers/read-ahead-load';
export { type ReaderIndex } from './index-layers/reader-index';
export { type LookedUpRepository, type QueueUnseenPolicy, type RepositoryLookup } from './unseen-lookup';
export { createSignIn, type SignIn, type SignInOptions, SignInProvider, signInAuthenticate, aesGcmSealer, type GrantRecord } from './sign-in';
export { waitForCommit } from './waiting/wait-for-commit';
