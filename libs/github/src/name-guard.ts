import { ownerProblem, repositoryNameProblem, repositoryPartProblem } from '@gitdex/contracts';
import { PortError } from '@gitdex/ports';

/**
 * The last check before a request path is built from a name: octokit fills `{owner}` and
 * `{repo}` into `/repos/{owner}/{repo}/…` and then normalises dot segments, so an owner of
 * ".." would send gitdex's token to another endpoint (`GET /repos/../user` is `GET /user`).
 * Names are checked where they come in; this guard holds even when one path forgot.
 */
export function assertRepositoryName(fullName: string): { owner: string; repo: string } {
  const problem = repositoryNameProblem(fullName);
  if (problem !== null) throw new PortError('INVALID', `not a GitHub repository name (${problem}); no request was sent`);
  const slash = fullName.indexOf('/');
  return { owner: fullName.slice(0, slash), repo: fullName.slice(slash + 1) };
}

/** The same check on the parameters of any octokit request, before its URL is expanded. */
export function assertRequestNames(parameters: Record<string, unknown>): void {
  const { owner, repo } = parameters;
  const problem = (typeof owner === 'string' ? ownerProblem(owner) : null) ?? (typeof repo === 'string' ? repositoryPartProblem(repo) : null);
  if (problem !== null) throw new PortError('INVALID', `not a GitHub repository name (${problem}); no request was sent`);
}
