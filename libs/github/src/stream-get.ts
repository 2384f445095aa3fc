import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface StreamGetOptions {
  headers: Record<string, string>;
  /** Redirects followed before giving up (GitHub answers archives with one, to codeload). */
  maxRedirects?: number;
  /** A connection silent this long is abandoned, so a stalled download never hangs the indexer. */
  idleTimeoutMs?: number;
}

/** A finished GET: the final answer, its body unread (the caller streams or drains it). */
export interface StreamGetResponse {
  status: number;
  headers: Record<string, string | number | undefined>;
  body: IncomingMessage;
}

/**
 * GET over node:http(s), following redirects, answering the body as a plain Node stream.
 * Not fetch: undici's fetch body costs CPU that grows with the download when the reader
 * applies backpressure (nodejs/undici#2014); a 150 MB archive read while bulks are written
 * spent most of an index in it. As fetch does, credentials are not sent on to another origin.
 */
export function streamGet(url: string, options: StreamGetOptions): Promise<StreamGetResponse> {
  return follow(new URL(url), options.headers, options.maxRedirects ?? 5, options.idleTimeoutMs ?? 60_000);
}

function follow(url: URL, headers: Record<string, string>, redirectsLeft: number, idleTimeoutMs: number): Promise<StreamGetResponse> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: 'GET', headers }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location) {
        res.resume();
        if (redirectsLeft <= 0) return reject(new Error(`too many redirects, the last to ${location}`));
        const next = new URL(location, url);
        const onward = next.origin === url.origin ? headers : withoutCredentials(headers);
        return resolve(follow(next, onward, redirectsLeft - 1, idleTimeoutMs));
      }
      res.setTimeout(idleTimeoutMs, () => res.destroy(new Error(`no data for ${idleTimeoutMs} ms from ${url.origin}`)));
      resolve({ status, headers: res.headers as Record<string, string | number | undefined>, body: res });
    });
    req.setTimeout(idleTimeoutMs, () => req.destroy(new Error(`no answer for ${idleTimeoutMs} ms from ${url.origin}`)));
    req.on('error', reject);
    req.end();
  });
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
}
