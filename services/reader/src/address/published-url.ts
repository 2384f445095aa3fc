import type { PublishedSite } from '@gitdex/contracts';
import { invalid } from '../tool-error';

const NAMES = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The repository and path a published URL is built from, by the first site whose pattern matches. */
export function resolvePublishedUrl(sites: readonly PublishedSite[], url: string): { repository: string; path: string; site: PublishedSite } | null {
  const bare = url
    .trim()
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
    .replace(/\/index\.html?$/i, '');
  for (const site of sites) {
    const names: string[] = [];
    const source = site.urlPattern
      .replace(/\/+$/, '')
      .split(NAMES)
      .map((part, i) => {
        if (i % 2 === 1) {
          names.push(part);
          return '(.+?)';
        }
        return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('');
    const match = new RegExp(`^${source}$`, 'i').exec(bare);
    if (!match) continue;
    const values = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')]));
    if (Object.values(values).some((value) => value.split('/').includes('..'))) return null;
    return { repository: site.repository, path: site.pathPattern.replace(NAMES, (_, name: string) => values[name] ?? ''), site };
  }
  return null;
}

/** The error for a URL that is neither GitHub's nor a configured site's: it lists the sites. */
export function unknownPublishedUrl(sites: readonly PublishedSite[], url: string): Error {
  const list = sites.length > 0 ? sites.map((s) => `${s.urlPattern} (${s.repository}:${s.pathPattern})`).join('; ') : 'none are configured (GITDEX_PUBLISHED_SITES)';
  return invalid(`path: ${url} is not a GitHub URL nor a page of a published site gitdex knows. Sites it reads documents of: ${list}. Or give repository and the path from its root.`);
}
