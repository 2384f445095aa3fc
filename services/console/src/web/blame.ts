// The blame column of the file view (blame through GET /v1/repositories/:owner/:repo/blame/*):
// beside the first line of each range the commit that last changed it, as git blame names it —
// its short sha linking to the commit on GitHub, the author, when, and the summary line. Every
// row of the file has a blame cell from the start (hidden until blame is shown), so lines read
// on later ("Show more lines") get theirs as they are drawn.
import type { BlameOutput, BlameRange } from '@gitdex/contracts';
import { append, h, time } from './dom.js';
import { commitUrlOf, relativeTime, shortSha } from './format.js';

/** The ranges of the file, once read, and what the cells link to. */
export class BlameColumn {
  private ranges: readonly BlameRange[] | null = null;
  /** The first line drawn: a range that starts above it is named there too. */
  private firstShown = Number.POSITIVE_INFINITY;

  constructor(
    private readonly table: HTMLTableElement,
    private readonly fileUrl: string | null,
  ) {}

  get loaded(): boolean {
    return this.ranges !== null;
  }

  /** The empty cell of a new row (filled at once when the blame is already read). */
  cell(line: number): HTMLTableCellElement {
    this.firstShown = Math.min(this.firstShown, line);
    const td = h('td', { class: 'blame' });
    if (this.ranges) this.fillCell(td, line);
    return td;
  }

  /** Takes the answer of blame and fills the cells of every row drawn so far. */
  show(answer: BlameOutput): void {
    this.ranges = answer.ranges;
    for (const td of this.table.querySelectorAll<HTMLTableCellElement>('td.blame')) {
      const line = Number(td.closest('tr')?.id.slice(1));
      if (line > 0) this.fillCell(td, line);
    }
  }

  private rangeOf(line: number): BlameRange | undefined {
    // Ranges come in line order and are few next to the lines: a binary search is not needed.
    return this.ranges?.find((r) => r.start_line <= line && line <= r.end_line);
  }

  private fillCell(td: HTMLTableCellElement, line: number): void {
    td.replaceChildren();
    const range = this.rangeOf(line);
    if (!range) return;
    const starts = line === range.start_line || line === this.firstShown;
    td.classList.toggle('blame-start', starts);
    if (!starts) return;
    const { commit } = range;
    td.dataset.sha = commit.sha;
    const url = commitUrlOf(this.fileUrl, commit.sha);
    const sha = h('code', { class: 'sha' }, shortSha(commit.sha));
    const boundary = range.boundary ? 'The oldest commit the index holds: these lines may be older. ' : '';
    const renamed = range.path ? `These lines were in ${range.path} then. ` : '';
    append(td, [
      url ? h('a', { href: url, rel: 'noreferrer', class: 'blame-sha', title: `${boundary}${renamed}${commit.sha}` }, sha) : sha,
      range.boundary ? h('span', { class: 'badge blame-boundary' }, 'boundary') : null,
      ' ',
      h('span', { class: 'blame-author' }, commit.author.name),
      ' ',
      time(commit.date, relativeTime(commit.date, Date.now())),
      ' ',
      h('span', { class: 'blame-summary', title: commit.summary }, commit.summary),
    ]);
  }
}
