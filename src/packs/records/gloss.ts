export const GLOSS_CHARS = 100;

/** Cuts at a character (grapheme) boundary — never inside a byte sequence or a combined character. */
export function cutAtCharacter(text: string, max: number): string {
  // Fewer code units than the limit means fewer graphemes too: nothing to cut, no segmenter
  // (creating the first one loads ICU data, ~8 ms a CLI call would otherwise pay).
  if (text.length <= max) return text;
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  // Only a bounded head is segmented, and only until one grapheme past the limit: segmenting
  // a whole 100,000-character line took seconds and gigabytes (a record's base64 image or a
  // minified paragraph aborted every query of its store).
  const head =
    text.length > max * HEAD_UNITS_PER_CHARACTER ? text.slice(0, max * HEAD_UNITS_PER_CHARACTER) : text;
  const graphemes: string[] = [];
  for (const { segment } of segmenter.segment(head)) {
    graphemes.push(segment);
    if (graphemes.length > max) return `${graphemes.slice(0, max).join('').trimEnd()}...`;
  }
  if (head === text) return text;
  // A head of fewer graphemes than the limit (clusters of dozens of marks each): its last one
  // may be cut by the slice, so it is dropped.
  return `${graphemes.slice(0, -1).join('').trimEnd()}...`;
}

/** The head segmented for a cut of `max` characters: this many code units per character allowed. */
const HEAD_UNITS_PER_CHARACTER = 32;

/** The first non-empty body line, heading marks removed, cut with `...`. */
export function glossOf(body: string, max = GLOSS_CHARS): string {
  let line = firstNonEmptyLine(body).trim();
  if (line.charCodeAt(0) === 35 /* # */) line = line.replace(/^#{1,6}\s+/, '');
  // Runs of white space become one space; a line with none but single spaces (nearly every
  // gloss) is already that, and is not copied (a first query glosses every record).
  if (/[^\S ]| {2}/.test(line)) line = line.replace(/\s+/g, ' ');
  return cutAtCharacter(line, max);
}

/** The first line with a non-blank character, found without splitting the whole body. */
function firstNonEmptyLine(body: string): string {
  let start = 0;
  while (start <= body.length) {
    const end = body.indexOf('\n', start);
    const line = end === -1 ? body.slice(start) : body.slice(start, end);
    if (line.trim() !== '') return line;
    if (end === -1) break;
    start = end + 1;
  }
  return '';
}
