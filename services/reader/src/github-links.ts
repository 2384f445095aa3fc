import { encodePath } from './address/repo-path';

/** GitHub web URLs of what an answer shows, at the indexed commit so they never drift. */
export function blobUrl(web: string, fullName: string, commit: string, path: string, lines?: { start: number; end: number }): string {
  const fragment = lines && lines.start > 0 ? (lines.start === lines.end ? `#L${lines.start}` : `#L${lines.start}-L${lines.end}`) : '';
  return `${web}/${fullName}/blob/${commit}/${encodePath(path)}${fragment}`;
}

export function treeUrl(web: string, fullName: string, commit: string, folder: string): string {
  return folder === '' ? `${web}/${fullName}/tree/${commit}` : `${web}/${fullName}/tree/${commit}/${encodePath(folder)}`;
}
