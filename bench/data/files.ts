import { lstatSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** A file to commit: where it is on disk, and the path it gets in the repository. */
export interface SourceFile {
  path: string;
  abs: string;
  size: number;
  executable: boolean;
}

export interface WalkOptions {
  /** Files larger than this are left out (their content would not be stored anyway). */
  maxBytes: number;
  /** Folder names not descended into (e.g. .git). */
  skipDirs?: readonly string[];
  /** Prefix of the repository paths. */
  prefix?: string;
}

/**
 * Regular files under `dir` (symlinks and special files are left out), in a stable order,
 * with repository paths relative to `dir` (plus `prefix`).
 */
/** The entries of a folder in a stable order; none when it cannot be read (gone, no permission). */
export function sortedNames(folder: string): string[] {
  try {
    return readdirSync(folder).sort();
  } catch {
    return [];
  }
}

export function walk(dir: string, options: WalkOptions): { files: SourceFile[]; skippedLarge: number } {
  const skip = new Set(options.skipDirs ?? ['.git']);
  const files: SourceFile[] = [];
  let skippedLarge = 0;
  const visit = (folder: string) => {
    for (const name of sortedNames(folder)) {
      const abs = join(folder, name);
      let stat;
      try {
        stat = lstatSync(abs);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        if (!skip.has(name)) visit(abs);
      } else if (stat.isFile()) {
        if (stat.size > options.maxBytes) {
          skippedLarge += 1;
          continue;
        }
        const rel = relative(dir, abs).split(sep).join('/');
        files.push({ path: options.prefix ? `${options.prefix}/${rel}` : rel, abs, size: stat.size, executable: (stat.mode & 0o111) !== 0 });
      }
    }
  };
  visit(dir);
  return { files, skippedLarge };
}

export function totalBytes(files: readonly SourceFile[]): number {
  return files.reduce((sum, f) => sum + f.size, 0);
}
