import { invalid } from '../tool-error';
import { looksLikeUrl, parseGithubUrl } from './github-url';

/** owner/name: GitHub allows letters, digits, '-', '_' and '.' (owners: letters, digits, '-'). */
const FULL_NAME = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** The owner/name a caller means by "owner/name", "owner/name.git" or a GitHub URL. */
export function parseRepositoryName(input: string, githubWebUrl: string): string {
  const text = input.trim();
  if (looksLikeUrl(text)) {
    const location = parseGithubUrl(text, githubWebUrl);
    if (!location) {
      throw invalid(`repository: ${JSON.stringify(truncate(text))} is not a GitHub repository URL; give "owner/name" or a URL such as ${githubWebUrl}/owner/name`);
    }
    return location.fullName;
  }
  const name = text.replace(/^\/+|\/+$/g, '').replace(/\.git$/i, '');
  if (!FULL_NAME.test(name)) {
    throw invalid(`repository: ${JSON.stringify(truncate(text))} is not "owner/name"; give it as e.g. "octo-org/api" or as its GitHub URL`);
  }
  return name;
}

export function truncate(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
