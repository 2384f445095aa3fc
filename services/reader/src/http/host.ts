import type { NextFunction, Request, Response } from 'express';

/** Names of this machine that a page cannot re-point: always allowed when the Host check is on. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** Addresses that mean "every interface": bound there, the Host a caller uses cannot be known in advance. */
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]', '']);

/** A Host header (or allow-list entry) as hostname and port: "Example.com.:8080" → { host: "example.com", port: "8080" }. */
export function splitHost(value: string): { host: string; port: string | null } | null {
  const text = value.trim().toLowerCase();
  const match = /^(\[[0-9a-f:.]+\]|[^\s:[\]/@]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match) return null;
  let host = match[1] as string;
  if (host.endsWith('.') && host.length > 1) host = host.slice(0, -1);
  if (host === '::1') host = '[::1]';
  return { host, port: match[2] ?? null };
}

/**
 * The Host names the reader answers to, from the address it binds and GITDEX_ALLOWED_HOSTS;
 * undefined when no check applies: "*" in the list, or bound to every interface with no list
 * (in a container behind an ingress, whose name only the operator knows).
 */
export function allowedHostsFor(bindHost: string, configured: readonly string[]): string[] | undefined {
  if (configured.includes('*')) return undefined;
  const bind = bindHost.trim().toLowerCase();
  if (WILDCARD_BINDS.has(bind) && configured.length === 0) return undefined;
  const own = WILDCARD_BINDS.has(bind) ? [] : [bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind];
  return [...new Set([...LOOPBACK_HOSTS, ...own, ...configured.map((h) => h.toLowerCase())])];
}

/**
 * Whether a Host header is one of `allowed`: an entry without port allows every port of
 * that name, an entry with one only that port.
 */
export function hostAllowed(header: string | undefined, allowed: readonly string[]): boolean {
  if (header === undefined) return false;
  const given = splitHost(header);
  if (!given) return false;
  return allowed.some((entry) => {
    const want = splitHost(entry);
    return want !== null && want.host === given.host && (want.port === null || want.port === given.port);
  });
}

/**
 * Refuses requests whose Host header is not one the reader answers to (403). Against DNS
 * rebinding: a hostile page whose name was re-pointed at 127.0.0.1 reaches a local reader
 * with its own name in Host, even when the browser sends no Origin. Undefined `allowed`: no check.
 */
export function hostGuard(allowed: readonly string[] | undefined, refuse: (res: Response, message: string) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (allowed === undefined || hostAllowed(req.headers.host, allowed)) {
      next();
      return;
    }
    const shown = (req.headers.host ?? '').replace(/[^\x20-\x7e]/g, '?').slice(0, 100);
    refuse(res, `Host "${shown}" is not a name this gitdex answers to: use localhost or one of the names in GITDEX_ALLOWED_HOSTS (set there the name callers use to reach it).`);
  };
}
