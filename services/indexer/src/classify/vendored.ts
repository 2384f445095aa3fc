/**
 * Paths that are vendored or generated, in the spirit of linguist's vendor.yml and
 * generated.rb: listed with a flag, content not stored. Extra rules come from config.
 */
const VENDORED = [
  /(^|\/)node_modules\//,
  /(^|\/)vendor\//,
  /(^|\/)bower_components\//,
  /(^|\/)third[-_]?party\//,
  /(^|\/)\.yarn\/(releases|cache|plugins)\//,
  /(^|\/)Pods\//,
];

const GENERATED = [
  /(^|\/)dist\//,
  /(^|\/)build\/(?!.*\.(md|txt)$)/,
  /\.min\.(js|css)$/,
  /\.(js|css)\.map$/,
  /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|npm-shrinkwrap\.json|Cargo\.lock|Gemfile\.lock|poetry\.lock|composer\.lock|go\.sum|Pipfile\.lock|bun\.lockb)$/,
  /\.pb\.go$/,
  /_pb2\.py$/,
  /\.generated\.\w+$/,
  /(^|\/)__generated__\//,
];

export interface PathRules {
  vendored: RegExp[];
  generated: RegExp[];
}

export const DEFAULT_PATH_RULES: PathRules = { vendored: VENDORED, generated: GENERATED };

export function classifyPath(path: string, rules: PathRules = DEFAULT_PATH_RULES): { vendored: boolean; generated: boolean } {
  return { vendored: rules.vendored.some((rule) => rule.test(path)), generated: rules.generated.some((rule) => rule.test(path)) };
}
