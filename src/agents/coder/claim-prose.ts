import { decodePercent } from '../../core/percent-decoding.js';
import { withoutCodeBlocks } from './prose-sentences.js';

/** Apostrophes as models type them (’ ‘ ʼ) made `'`, so "haven’t" is the denial "haven't". */
export function straightApostrophes(text: string): string {
  return text.replace(/[\u2018\u2019\u02bc]/g, "'");
}

/**
 * A reply as the claim readers read it: fenced code blanked, curly apostrophes made straight, a
 * `file://` URL turned into the path it names (`file:///PROJECT/src/a.ts` → `/PROJECT/src/a.ts`),
 * every other URL dropped. Change, count and read claims share it, so a file named by its URL is
 * held to the ledger by each ("I read file:///…/README.md" is a read claim like "I read
 * README.md"), and a denial typed with ’ is a denial to each.
 */
export function claimProse(text: string): string {
  return (
    straightApostrophes(withoutCodeBlocks(text))
      .replace(/\bfile:\/\/(?:localhost)?(\/[^\s)>\]`'"]+)/gi, (_url, path: string) => {
        const decoded = decodePercent(path);
        // A name with a space cannot be one token of prose: left as spelled.
        return /\s/.test(decoded) ? path : decoded;
      })
      // Other URLs name no project file: `https://example.com/a.ts` is no claim about a.ts.
      .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ')
  );
}
