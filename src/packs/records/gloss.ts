export const GLOSS_CHARS = 100;

/** Cuts at a character (grapheme) boundary — never inside a byte sequence or a combined character. */
export function cutAtCharacter(text: string, max: number): string {
  // Fewer code units than the limit means fewer graphemes too: nothing to cut, no segmenter
  // (creating the first one loads ICU data, ~8 ms a CLI call would otherwise pay).
  if (text.length <= max) return text;
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const graphemes = [...segmenter.segment(text)].map((segment) => segment.segment);
  return graphemes.length <= max ? text : `${graphemes.slice(0, max).join('').trimEnd()}...`;
}

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
