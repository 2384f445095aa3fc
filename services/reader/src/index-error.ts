/**
 * What a reader is told about a failed index: a code and a fixed sentence, never the raw
 * error (it can hold host names, addresses, paths or stack text). Operators have the raw
 * error in the indexer's logs and in the stored ref state. Matching is plain substring
 * search on the lower-cased text, no pattern that could backtrack.
 */
const CLASSES: { code: string; message: string; markers: string[] }[] = [
  { code: 'GITHUB_RATE_LIMITED', message: "GitHub's rate limit was reached; the indexer retries", markers: ['rate limit', 'rate_limited', '429'] },
  {
    code: 'GITHUB_ACCESS_DENIED',
    message: 'GitHub refused access to the repository; check the app installation or token',
    markers: ['forbidden', 'unauthorized', 'bad credentials', '401', '403', 'access_denied'],
  },
  { code: 'GITHUB_NOT_FOUND', message: 'GitHub no longer has this commit or repository', markers: ['not found', 'not_found', '404'] },
  { code: 'TOO_LARGE', message: 'the repository or a file is larger than gitdex indexes', markers: ['too large', 'too_large', 'truncated'] },
  {
    code: 'UNAVAILABLE',
    message: 'a service gitdex depends on did not answer; the indexer retries',
    markers: ['econn', 'etimedout', 'enotfound', 'eai_again', 'socket', 'timeout', 'timed out', 'unavailable', '502', '503', '504'],
  },
];

export function cleanIndexError(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const text = raw.toLowerCase();
  const match = CLASSES.find((c) => c.markers.some((m) => text.includes(m)));
  return match ? `${match.code}: ${match.message}` : 'INDEX_FAILED: indexing failed; whoever runs gitdex has the details in the indexer logs';
}
