import Fuse, { type IFuseOptions } from 'fuse.js';

/**
 * The fuse.js baselines: its defaults, and options for paths (set by reasoning; to be
 * confirmed or replaced by fuse-options.ts, which ranks a grid on the tuning set, never on
 * the held-out cases). With the defaults fuse.js weighs where in the string a match is (location 0,
 * distance 100), which punishes a file name at the end of a long path; ignoreLocation
 * drops that, and matching the name as its own key (weighted above the path) helps names.
 */
export const FUSE_DEFAULTS: IFuseOptions<{ path: string; name: string }> = { keys: ['path'] };

export const FUSE_FOR_PATHS: IFuseOptions<{ path: string; name: string }> = {
  keys: [
    { name: 'path', weight: 1 },
    { name: 'name', weight: 2 },
  ],
  ignoreLocation: true,
  threshold: 0.4,
  ignoreFieldNorm: true,
};

export type Top = (query: string) => string[];

/** A top-5 function over `paths` with fuse.js and the given options. */
export function fuseTop(paths: readonly string[], options: IFuseOptions<{ path: string; name: string }>): Top {
  const fuse = new Fuse(
    paths.map((path) => ({ path, name: path.slice(path.lastIndexOf('/') + 1) })),
    options,
  );
  return (query) => fuse.search(query, { limit: 5 }).map((r) => r.item.path);
}
