import { visibleControls } from '../visible-controls.js';

/** Left-aligned plain-text table; the last column is not padded. Control characters are shown. */
export function formatTable(header: string[], cellsOf: string[][]): string {
  const rows = cellsOf.map((row) => row.map(visibleControls));
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] as number)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/**
 * Whitespace runs collapsed, cut to `max` characters (code points) with an ellipsis, control
 * characters shown.
 */
export function truncate(text: string, max: number): string {
  return visibleControls(cut(text, max));
}

function cut(text: string, max: number): string {
  // Only the head can be shown: normalise a bounded prefix, not the whole of a 1 MB body —
  // unless its whitespace collapses to fewer characters than fit, then the whole.
  const bound = max * 4 + 16;
  let flat = (text.length > bound ? text.slice(0, bound) : text).replace(/\s+/g, ' ').trim();
  if (text.length > bound && [...flat].length < max) flat = text.replace(/\s+/g, ' ').trim();
  else if (text.length > bound) return cutAt(flat, max);
  return flat.length <= max ? flat : cutAt(flat, max);
}

/** The first `max - 1` code points and an ellipsis, or `flat` whole when it fits. */
function cutAt(flat: string, max: number): string {
  let count = 0;
  let end = 0;
  for (const char of flat) {
    if (count === max - 1) {
      // A character past max - 1: cut only if yet another follows (exactly max fits).
      const rest = flat.length - end - char.length;
      return rest === 0 ? flat : `${flat.slice(0, end)}…`;
    }
    count++;
    end += char.length;
  }
  return flat;
}
