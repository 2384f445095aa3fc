// GitHub-style page/per_page pagination with a Link header (rel="next", "last", "first", "prev").
import type { Request, Response } from 'express';
import { requestBase } from './http';

function pageUrl(req: Request, page: number, perPage: number): string {
  const url = new URL(req.originalUrl, requestBase(req));
  url.searchParams.set('per_page', String(perPage));
  url.searchParams.set('page', String(page));
  return url.toString();
}

/** Slices `items` for the requested page and sets the Link header like GitHub. */
export function paginate<T>(req: Request, res: Response, items: readonly T[], defaultPerPage = 30): T[] {
  const perPage = Math.min(100, Math.max(1, Number(req.query.per_page) || defaultPerPage));
  const page = Math.max(1, Number(req.query.page) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const links: string[] = [];
  if (page < last) {
    links.push(`<${pageUrl(req, page + 1, perPage)}>; rel="next"`, `<${pageUrl(req, last, perPage)}>; rel="last"`);
  }
  if (page > 1) {
    links.push(`<${pageUrl(req, page - 1, perPage)}>; rel="prev"`, `<${pageUrl(req, 1, perPage)}>; rel="first"`);
  }
  if (links.length > 0) res.setHeader('link', links.join(', '));
  return items.slice((page - 1) * perPage, page * perPage);
}
