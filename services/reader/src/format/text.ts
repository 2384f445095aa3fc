import type { FileFlags, FileFlagsOutput } from '@gitdex/contracts';

/** "812 B", "8.1 KB", "2.3 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** toLocaleString('en-US') builds a formatter on every call; listings format a number per line. */
const EN_US = new Intl.NumberFormat('en-US');

/** "1,234": what toLocaleString('en-US') says, with one formatter for every call. */
export function formatNumber(value: number): string {
  return EN_US.format(value);
}

export function formatCount(count: number, one: string, many = `${one}s`): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

/** The flags that apply, and only those: answers stay short for the files that have none. */
export function flagsOutput(flags: FileFlags): FileFlagsOutput {
  return {
    ...(flags.binary ? { binary: true } : {}),
    ...(flags.vendored ? { vendored: true } : {}),
    ...(flags.generated ? { generated: true } : {}),
    ...(flags.tooLarge ? { too_large: true } : {}),
  };
}

/** "[binary, vendored]" or "" — what a listing line says about a file beside its size. */
export function flagWords(flags: FileFlagsOutput, kind: string, target?: string): string {
  const words: string[] = [];
  if (kind === 'symlink') words.push(`symlink → ${target ?? '?'}`);
  if (kind === 'submodule') words.push(`submodule @ ${(target ?? '?').slice(0, 12)}`);
  if (flags.binary) words.push('binary');
  if (flags.too_large) words.push('too large');
  if (flags.vendored) words.push('vendored');
  if (flags.generated) words.push('generated');
  return words.length > 0 ? ` [${words.join(', ')}]` : '';
}

/** Cuts text to at most `max` UTF-16 units without splitting a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** Size of a result as a client sees it: the text block plus the structured content as JSON. */
export function resultChars(text: string, structured: unknown): number {
  return text.length + JSON.stringify(structured).length;
}
