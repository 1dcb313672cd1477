import { formatPatch, structuredPatch } from 'diff';

/** Unchanged lines shown around each change, as `git diff` shows them. */
export const DIFF_CONTEXT = 3;

/** The lines of a text, each with its own line ending (`\n` or `\r\n`; the last may have none). */
function linesOf(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/**
 * The unified diff of an edit (`createTwoFilesPatch` with DIFF_CONTEXT lines of context), computed
 * on the changed part only. An edit changes a few lines of a file; diffing the whole file cost
 * ~0.1 ms at 40 lines and ~2.4 ms at 4,000 (the official filesystem server pays that on every
 * edit). The lines both versions share at the start and at the end cannot be part of a change,
 * so all but DIFF_CONTEXT of them are left out and the hunks' line numbers moved back by what
 * was left out at the start.
 */
export function editDiff(oldName: string, newName: string, before: string, after: string): string {
  const oldLines = linesOf(before);
  const newLines = linesOf(after);
  const shortest = Math.min(oldLines.length, newLines.length);
  let prefix = 0;
  while (prefix < shortest && oldLines[prefix] === newLines[prefix]) prefix += 1;
  // The shared end never overlaps the shared start (a line inserted into a run of equal lines).
  let suffix = 0;
  while (
    suffix < shortest - prefix &&
    oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
  )
    suffix += 1;
  const from = Math.max(0, prefix - DIFF_CONTEXT);
  const dropAtEnd = Math.max(0, suffix - DIFF_CONTEXT);
  const patch = structuredPatch(
    oldName,
    newName,
    oldLines.slice(from, oldLines.length - dropAtEnd).join(''),
    newLines.slice(from, newLines.length - dropAtEnd).join(''),
    undefined,
    undefined,
    { context: DIFF_CONTEXT },
  );
  for (const hunk of patch.hunks) {
    hunk.oldStart += from;
    hunk.newStart += from;
  }
  return formatPatch(patch);
}
