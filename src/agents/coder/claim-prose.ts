import { decodePercent } from '../../core/percent-decoding.js';
import { withoutCodeBlocks } from './prose-sentences.js';

/**
 * A reply as the claim readers read it: fenced code blanked, a `file://` URL turned into the path
 * it names (`file:///PROJECT/src/a.ts` → `/PROJECT/src/a.ts`), every other URL dropped. Change
 * claims and read claims share it, so a file named by its URL is held to the ledger by both
 * ("I read file:///…/README.md" is a read claim like "I read README.md").
 */
export function claimProse(text: string): string {
  return (
    withoutCodeBlocks(text)
      .replace(/\bfile:\/\/(?:localhost)?(\/[^\s)>\]`'"]+)/gi, (_url, path: string) => {
        const decoded = decodePercent(path);
        // A name with a space cannot be one token of prose: left as spelled.
        return /\s/.test(decoded) ? path : decoded;
      })
      // Other URLs name no project file: `https://example.com/a.ts` is no claim about a.ts.
      .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ')
  );
}
