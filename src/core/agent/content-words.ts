import type { Claim } from './claims.js';

/** A quoted text — straight, typographic, single or back quotes — as groups 1–4, at most 2000 characters. */
export const QUOTED_CONTENT =
  '(?:"([^"\\n]{1,2000})"|“([^”\\n]{1,2000})”|\'([^\'\\n]{1,2000})\'|`([^`\\n]{1,2000})`)';

/** The quoted text a match of a pattern built on `QUOTED_CONTENT` holds. */
export function quotedContentOf(match: RegExpMatchArray): string | undefined {
  return match.slice(1, 5).find((group) => group !== undefined);
}

// "containing "X"", "with the text "X"", "that says "X"", "wrote "X"" — content named in words.
const CONTENT_PHRASE = new RegExp(
  `\\b(?:containing|contains|with\\s+(?:the\\s+)?(?:text|content|contents|body|line|words?)|that\\s+(?:says|reads|holds)|reading|saying|wrote|writes|written)\\s*:?\\s*${QUOTED_CONTENT}`,
  'gi',
);

/** The texts a phrase of content names ("the file containing "hello"" → `hello`). */
export function statedContents(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(CONTENT_PHRASE)) {
    const quoted = quotedContentOf(match);
    if (quoted !== undefined && !found.includes(quoted)) found.push(quoted);
  }
  return found;
}

/**
 * A claim whose title carries content in words is checked like `contains`: the words are
 * the model's, so they are evidence of nothing until the resource is read at finish.
 */
export function withStatedContent(claim: Claim): Claim {
  if (claim.contains !== undefined || typeof claim.title !== 'string') return claim;
  const [content] = statedContents(claim.title);
  return content === undefined ? claim : { ...claim, contains: content };
}
