/**
 * The change lists of a reply (`Changes:` and its bullets), found by line: shared by the prose
 * net (`mentionedChanges`) and the list check (`parseChangeList`).
 */

/** A heading that opens a list of changed files (`Changes:`, `## Files changed`, `**Changes:** none`). */
export const CHANGE_HEADING =
  /^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*(?:changes(?: made)?|file changes|files? changed|changed files?|files? modified|modified files?|files? touched|summary of changes)(?: (?:in )?this turn)?\s*(?:\*\*|__)?\s*(:)?\s*(?:\*\*|__)?\s*(.*?)\s*$/i;
const BULLET = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+(.*\S)\s*$/;
/** A list (or heading tail) that says nothing changed. */
export const NOTHING_CHANGED =
  /^(?:none|nothing|no changes?|no files?(?: were)? (?:changed|modified|touched)|\(none\)|-|—)\.?$/i;

/** A bullet list under a change heading, by line numbers of the text's lines. */
export interface ChangeBlock {
  /** The heading line and the last line of the block (inclusive). */
  first: number;
  last: number;
  /** The bullets' text (without the marker), in order. */
  bullets: string[];
  /** The heading or a bullet says nothing changed. */
  none: boolean;
}

/**
 * The change lists of a reply: a heading line (`Changes:`, `Files changed:`, `## Changes`,
 * `**Changes:**`, with a colon or a `#`) followed by bullets (`-`, `*`, `+`, `•`, `1.`),
 * blank lines allowed between them; the list ends at the first other line. A heading whose
 * tail says `none` is a list of nothing. Fenced code is never a list.
 */
export function changeBlocks(text: string): ChangeBlock[] {
  const lines = text.split('\n');
  const blocks: ChangeBlock[] = [];
  let fenced = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = CHANGE_HEADING.exec(line);
    if (!heading || !(heading[1] || /^\s*#/.test(line))) continue;
    const tail = heading[2] ?? '';
    if (tail && !NOTHING_CHANGED.test(tail)) continue;
    const block: ChangeBlock = { first: index, last: index, bullets: [], none: tail !== '' };
    for (let next = index + 1; next < lines.length; next++) {
      const candidate = lines[next] as string;
      if (candidate.trim() === '') continue;
      const bullet = BULLET.exec(candidate);
      if (!bullet) break;
      block.bullets.push(bullet[1] as string);
      block.last = next;
    }
    if (block.bullets.some((bullet) => NOTHING_CHANGED.test(bullet.replace(/[`*_]/g, '').trim())))
      block.none = true;
    if (block.bullets.length > 0 || block.none) {
      blocks.push(block);
      index = block.last;
    }
  }
  return blocks;
}
