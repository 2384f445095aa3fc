/**
 * Paths that are vendored or generated, in the spirit of linguist's vendor.yml and
 * generated.rb: listed with a flag, content not stored. Extra rules come from config.
 */
const VENDORED = [/(^|\/)node_modules\//, /(^|\/)vendor\//, /(^|\/)bower_components\//, /(^|\/)third[-_]?party\//, /(^|\/)\.yarn\/(releases|cache|plugins)\//, /(^|\/)Pods\//];

const GENERATED = [
  /(^|\/)dist\//,
  // Not /(^|\/)build\/(?!.*\.(md|txt)$)/: its lookahead rescans the rest of the path at every
  // "build/", quadratic on a long path of them ending in .md (331 s for 1 MiB).
  { test: (path: string) => /(^|\/)build\//.test(path) && !/\.(md|txt)$/.test(path) },
  /\.min\.(js|css)$/,
  /\.(js|css)\.map$/,
  /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|npm-shrinkwrap\.json|Cargo\.lock|Gemfile\.lock|poetry\.lock|composer\.lock|go\.sum|Pipfile\.lock|bun\.lockb)$/,
  /\.pb\.go$/,
  /_pb2\.py$/,
  /\.generated\.\w+$/,
  /(^|\/)__generated__\//,
];

/** A regular expression, or a function where a pattern would backtrack. */
export type PathRule = { test(path: string): boolean };

export interface PathRules {
  vendored: PathRule[];
  generated: PathRule[];
}

export const DEFAULT_PATH_RULES: PathRules = { vendored: VENDORED, generated: GENERATED };

export function classifyPath(path: string, rules: PathRules = DEFAULT_PATH_RULES): { vendored: boolean; generated: boolean } {
  return { vendored: rules.vendored.some((rule) => rule.test(path)), generated: rules.generated.some((rule) => rule.test(path)) };
}
