/** Number formatting shared by the console, Markdown and SVG reports. */

export function formatNumber(value: number | null | undefined, unit = ''): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '-∞';
  const abs = Math.abs(value);
  let text: string;
  if (unit === '%') text = value.toFixed(1);
  else if (abs >= 1000) text = Math.round(value).toLocaleString('en-US');
  else if (abs >= 100) text = value.toFixed(0);
  else if (abs >= 10) text = value.toFixed(1);
  else if (abs >= 1) text = value.toFixed(2);
  else if (abs === 0) text = '0';
  else text = value.toPrecision(2);
  return unit ? `${text} ${unit}` : text;
}

export function formatRatio(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return `${value >= 10 ? value.toFixed(1) : value.toFixed(2)}×`;
}

/** Escapes a cell of a Markdown table. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
