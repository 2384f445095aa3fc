/** The texts of the wanted lines (1-based numbers) up to line `last`, found in one pass. */
export function lineSpans(content: string, wanted: Set<number>, last: number): Map<number, string> {
  const out = new Map<number, string>();
  let start = 0;
  for (let number = 1; number <= last && start <= content.length; number += 1) {
    const newline = content.indexOf('\n', start);
    const end = newline < 0 ? content.length : newline;
    if (wanted.has(number)) out.set(number, content.slice(start, end));
    if (newline < 0) break;
    start = newline + 1;
  }
  return out;
}
