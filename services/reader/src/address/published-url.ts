import type { PublishedSite } from '@gitdex/contracts';
import type { Principal, ReaderDeps } from '../deps';
import { lookupByName } from '../target';
import { invalid } from '../tool-error';
import { trimSlashes, truncate } from './repository-name';

const NAMES = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Longest published URL read: a page's address; browsers and CDNs keep URLs near 2,000 characters. */
export const MAX_PUBLISHED_URL_CHARS = 2048;

/** A URL pattern as literal text between placeholders: `literals.length === names.length + 1`. */
interface Pattern {
  literals: string[];
  names: string[];
}

/** The repository and path a published URL is built from, by the first site whose pattern matches. */
export function resolvePublishedUrl(sites: readonly PublishedSite[], url: string): { repository: string; path: string; site: PublishedSite } | null {
  if (url.length > MAX_PUBLISHED_URL_CHARS) {
    throw invalid(`path: the URL has ${url.length.toLocaleString('en-US')} characters; a published page's URL has at most ${MAX_PUBLISHED_URL_CHARS.toLocaleString('en-US')}`);
  }
  const bare = trimSlashes(url.trim().replace(/[?#][^]*$/, '')).replace(/\/index\.html?$/i, '');
  for (const site of sites) {
    const pattern = compile(site.urlPattern);
    const parts = matchPattern(pattern, bare);
    if (!parts) continue;
    const values = new Map(pattern.names.map((name, i) => [name, decode(parts[i] ?? '', url)]));
    if ([...values.values()].some((value) => value.split('/').includes('..'))) return null;
    return { repository: site.repository, path: site.pathPattern.replace(NAMES, (_, name: string) => values.get(name) ?? ''), site };
  }
  return null;
}

/**
 * The error for a URL that is neither GitHub's nor a configured site's: it lists the sites
 * this caller may read (a private repository's site is no more named than the repository).
 */
export async function unknownPublishedUrl(deps: ReaderDeps, principal: Principal | null, url: string): Promise<Error> {
  const readable: PublishedSite[] = [];
  for (const site of deps.sites) {
    const repository = await lookupByName(deps, site.repository);
    if (repository && deps.access(repository, principal)) readable.push(site);
  }
  const list = readable.length > 0 ? readable.map((s) => `${s.urlPattern} (${s.repository}:${s.pathPattern})`).join('; ') : 'none you can read (GITDEX_PUBLISHED_SITES)';
  return invalid(`path: ${truncate(url)} is not a GitHub URL nor a page of a published site gitdex knows. Sites it reads documents of: ${list}. Or give repository and the path from its root.`);
}

function compile(urlPattern: string): Pattern {
  const split = trimSlashes(urlPattern).split(NAMES);
  return { literals: split.filter((_, i) => i % 2 === 0), names: split.filter((_, i) => i % 2 === 1) };
}

/**
 * What each placeholder matched, or null. A placeholder takes one or more characters ("/"
 * too, for nested pages), case-insensitively, and an earlier one as few as the rest allows.
 * Wildcard matching without a regex: on a mismatch only the latest placeholder takes one
 * more character, as an earlier one never has to (a later placeholder can absorb anything
 * it would), so the work is at most the URL's length times the pattern's, never more.
 */
export function matchPattern(pattern: Pattern, text: string): string[] | null {
  const { literals } = pattern;
  const head = literals[0] ?? '';
  if (!startsWithAt(text, 0, head)) return null;
  const starts: number[] = [];
  const ends: number[] = [];
  let at = head.length;
  for (let i = 0; i < pattern.names.length; i += 1) {
    const literal = literals[i + 1] ?? '';
    const last = i === pattern.names.length - 1;
    // The placeholder takes at least one character, then the literal after it comes at the first place it fits.
    const found = last ? (text.length - literal.length >= at + 1 && startsWithAt(text, text.length - literal.length, literal) ? text.length - literal.length : -1) : indexOfFrom(text, literal, at + 1);
    if (found < 0) return null;
    starts.push(at);
    ends.push(found);
    at = found + literal.length;
  }
  if (pattern.names.length === 0 && at !== text.length) return null;
  return starts.map((start, i) => text.slice(start, ends[i]));
}

/** Case-insensitive indexOf from a position (as the pattern's literals are matched). */
function indexOfFrom(text: string, literal: string, from: number): number {
  for (let at = from; at + literal.length <= text.length; at += 1) if (startsWithAt(text, at, literal)) return at;
  return -1;
}

function startsWithAt(text: string, at: number, literal: string): boolean {
  if (at + literal.length > text.length) return false;
  for (let i = 0; i < literal.length; i += 1) {
    const a = text[at + i] as string;
    const b = literal[i] as string;
    if (a !== b && a.toLowerCase() !== b.toLowerCase()) return false;
  }
  return true;
}

function decode(value: string, url: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw invalid(`path: ${truncate(url)} holds a malformed percent-escape (each %XX must be two hex digits, together UTF-8); give the URL as the site shows it`);
  }
}
