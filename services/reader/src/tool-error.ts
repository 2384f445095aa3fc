import type { ToolErrorCode } from '@gitdex/contracts';

/**
 * An error meant for the caller of a tool (an agent or a program): its message says
 * what was wrong and what to do next. Anything else thrown by the core is internal:
 * logged with context and answered with a generic message, never shown as it is.
 */
export class ToolError extends Error {
  readonly code: ToolErrorCode;
  /** Paths or repositories the caller may have meant, best first. */
  readonly suggestions: string[];

  constructor(code: ToolErrorCode, message: string, options: { suggestions?: string[]; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ToolError';
    this.code = code;
    this.suggestions = options.suggestions ?? [];
  }
}

export const invalid = (message: string): ToolError => new ToolError('INVALID_ARGUMENT', message);

export const indexUnavailable = (detail = 'the index did not answer'): ToolError => new ToolError('UNAVAILABLE', `The index is unavailable right now (${detail}). Retry in a few seconds.`);

/** HTTP status of each caller error, for the REST API. */
export const HTTP_STATUS: Record<ToolErrorCode, number> = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  REPOSITORY_NOT_FOUND: 404,
  NOT_INDEXED: 404,
  CURSOR_EXPIRED: 410,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};
