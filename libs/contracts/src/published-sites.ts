import { repositoryNameProblem } from './repository-names';

/**
 * Documents by their published URL (read fidelity): a site built from a repository folder
 * (Hugo, Jekyll, Docusaurus, MkDocs) maps its URLs to repository paths. GITDEX_PUBLISHED_SITES
 * holds `url pattern=owner/name:path pattern` entries separated by ";" or new lines, e.g.
 * `https://blog.example.com/posts/{slug}=acme/blog:content/posts/{slug}.md`. A `{name}` in the
 * URL matches one or more characters (a "/" too, for nested pages); the path pattern uses the
 * same names.
 */
export interface PublishedSite {
  urlPattern: string;
  repository: string;
  pathPattern: string;
}

const ENTRY = /^(https?:\/\/[^=\s]+)=([A-Za-z0-9._-]+\/[A-Za-z0-9._-]+):(\S+)$/;
const NAMES = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function parsePublishedSites(text: string): { sites: PublishedSite[]; problems: string[] } {
  const sites: PublishedSite[] = [];
  const problems: string[] = [];
  text
    .split(/[;\n]/)
    .map((part) => part.trim())
    .filter(Boolean)
    .forEach((entry, i) => {
      const match = ENTRY.exec(entry);
      if (!match) {
        problems.push(`entry ${i + 1}: write it as https://site/path/{slug}=owner/name:folder/{slug}.md`);
        return;
      }
      const [, urlPattern = '', repository = '', pathPattern = ''] = match;
      const badName = repositoryNameProblem(repository);
      if (badName !== null) {
        problems.push(`entry ${i + 1}: the repository is not a GitHub owner/name: ${badName}`);
        return;
      }
      const inUrl = new Set([...urlPattern.matchAll(NAMES)].map((m) => m[1]));
      const missing = [...pathPattern.matchAll(NAMES)].map((m) => m[1]).filter((name) => !inUrl.has(name));
      if (missing.length > 0) problems.push(`entry ${i + 1}: {${missing.join('}, {')}} is in the path but not in the URL`);
      else sites.push({ urlPattern, repository, pathPattern });
    });
  return { sites, problems };
}
