import { repositoryNameProblem } from '@gitdex/contracts';
import { invalid } from '../tool-error';
import { looksLikeUrl, parseGithubUrl } from './github-url';

/** The owner/name a caller means by "owner/name", "owner/name.git" or a GitHub URL. */
export function parseRepositoryName(input: string, githubWebUrl: string): string {
  const text = input.trim();
  if (looksLikeUrl(text, githubWebUrl)) {
    const location = parseGithubUrl(text, githubWebUrl);
    if (!location) {
      throw invalid(`repository: ${JSON.stringify(truncate(text))} is not a GitHub repository URL; give "owner/name" or a URL such as ${githubWebUrl}/owner/name`);
    }
    return checkedName(location.fullName, text);
  }
  return checkedName(trimSlashes(text).replace(/\.git$/i, ''), text);
}

/** The ref a repository URL names outright (a pull request's page: `…/pull/123` → "pull/123"), if any. */
export function refOfRepositoryUrl(input: string, githubWebUrl: string): string | undefined {
  const text = input.trim();
  return looksLikeUrl(text, githubWebUrl) ? parseGithubUrl(text, githubWebUrl)?.ref : undefined;
}

/** The name when GitHub allows it (shared rules, libs/contracts); else a caller error saying why. */
function checkedName(name: string, text: string): string {
  const problem = repositoryNameProblem(name);
  if (problem !== null) throw invalid(`repository: ${JSON.stringify(truncate(text))} is not "owner/name": ${problem}; give it as e.g. "octo-org/api" or as its GitHub URL`);
  return name;
}

/** Without leading and trailing slashes; by index, as /\/+$/ backtracks over every run of slashes (quadratic). */
export function trimSlashes(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 0x2f) start += 1;
  while (end > start && text.charCodeAt(end - 1) === 0x2f) end -= 1;
  return text.slice(start, end);
}

export function truncate(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
