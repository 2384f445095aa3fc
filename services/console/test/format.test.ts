import {
  childOnTheWay,
  commitUrlOf,
  debounce,
  firstLine,
  encodePath,
  formatBytes,
  normalisePath,
  parentFolder,
  pathSegments,
  plural,
  relativeTime,
  safeUrl,
  shortSha,
  withoutFragment,
} from '../src/web/format';

describe('console formatting', () => {
  it('writes sizes as people read them', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.0 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(20 * 1024)).toBe('20 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatBytes(-1)).toBe('–');
  });

  it('links a blamed commit from the file URL and takes the summary line of a message', () => {
    const sha = 'a'.repeat(40);
    expect(commitUrlOf(`https://github.com/octo/api/blob/${'b'.repeat(40)}/src/a.ts#L1-L9`, sha)).toBe(`https://github.com/octo/api/commit/${sha}`);
    expect(commitUrlOf(`https://ghe.example/octo/api/blob/${'b'.repeat(40)}/src/a.ts`, sha)).toBe(`https://ghe.example/octo/api/commit/${sha}`);
    expect(commitUrlOf('javascript:alert(1)//blob/abcdef0/x', sha)).toBeNull();
    expect(commitUrlOf(`https://github.com/octo/api/blob/${'b'.repeat(40)}/a.ts`, '../../evil')).toBeNull();
    expect(firstLine('Add carts\n\nWhy: checkout needs them.')).toBe('Add carts');
    expect(firstLine('One line  ')).toBe('One line');
  });

  it('counts and shortens', () => {
    expect(plural(1, 'file')).toBe('1 file');
    expect(plural(1234, 'file')).toBe('1,234 files');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
    expect(shortSha('0123456789abcdef')).toBe('0123456');
    expect(shortSha(null)).toBe('–');
  });

  it('says how long ago', () => {
    const now = Date.parse('2025-01-02T03:04:05.000Z');
    expect(relativeTime('2025-01-02T03:04:04.500Z', now)).toBe('just now');
    expect(relativeTime('2025-01-02T03:03:50.000Z', now)).toBe('15 s ago');
    expect(relativeTime('2025-01-02T02:54:05.000Z', now)).toBe('10 min ago');
    expect(relativeTime('2025-01-01T03:04:05.000Z', now)).toBe('24 h ago');
    expect(relativeTime('2024-12-20T03:04:05.000Z', now)).toBe('13 d ago');
    expect(relativeTime(null, now)).toBe('–');
    expect(relativeTime('not a date', now)).toBe('–');
  });

  it('handles paths as typed', () => {
    expect(pathSegments('/src//a/./b.ts')).toEqual(['src', 'a', 'b.ts']);
    expect(normalisePath('  ./src//utils/ ')).toBe('src/utils');
    expect(parentFolder('src/a/b.ts')).toBe('src/a');
    expect(parentFolder('b.ts')).toBe('');
    expect(encodePath('docs/a b/#1 100%.md')).toBe('docs/a%20b/%231%20100%25.md');
    expect(safeUrl('https://github.com/o/r')).toBe('https://github.com/o/r');
    expect(safeUrl('HTTP://ghe.local/o/r')).toBe('HTTP://ghe.local/o/r');
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl(null)).toBeNull();
    expect(withoutFragment('https://github.com/o/r/blob/abc/x.ts#L1-L20')).toBe('https://github.com/o/r/blob/abc/x.ts');
  });

  it('finds the entry that leads back when going up', () => {
    expect(childOnTheWay('', 'src/utils/strings.ts')).toBe('src');
    expect(childOnTheWay('src', 'src/utils/strings.ts')).toBe('src/utils');
    expect(childOnTheWay('src', 'src')).toBeNull();
    expect(childOnTheWay('src', 'docs/guide.md')).toBeNull();
    expect(childOnTheWay('', '')).toBeNull();
  });

  it('debounces: one call after the input is quiet, none after cancel', () => {
    jest.useFakeTimers();
    try {
      const calls: string[] = [];
      const typed = debounce((q: string) => calls.push(q), 150);
      typed('s');
      typed('sr');
      jest.advanceTimersByTime(149);
      typed('src');
      jest.advanceTimersByTime(150);
      expect(calls).toEqual(['src']);
      typed('src/');
      typed.cancel();
      jest.advanceTimersByTime(500);
      expect(calls).toEqual(['src']);
    } finally {
      jest.useRealTimers();
    }
  });
});
