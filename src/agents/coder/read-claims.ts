import type { ChangeFlag } from './chat-record.js';
import { canonicalOf, type TurnFacts } from './flag-false-statements.js';
import { fileSpellings } from './mentioned-changes.js';
import { leadWords, sentencesOf, withoutCodeBlocks } from './prose-sentences.js';

/** `I read X`, `I reviewed X`, `according to X`, `after reading X`: the file right after the phrase. */
const READ_PHRASE =
  /\b(?:(?:I|I've|I\s+have|we|we've)\s+(?:also\s+|first\s+|carefully\s+)?(?:read|reviewed|inspected|examined|opened|looked\s+(?:at|through|over)|went\s+through)|after\s+(?:reading|reviewing|inspecting|opening)|according\s+to|as\s+(?:stated|described|shown)\s+in|based\s+on)\s+(?:the\s+)?(?:file\s+|contents?\s+of\s+)?(`?[^\s`,;()]+`?)/gi;
const NOT_A_CLAIM =
  /\b(not|never|didn't|haven't|hasn't|couldn't|can't|without|will|would|should|could|can|may|might|must|need|going|plan|if|to|you|please)\b/i;

/**
 * Read claims: a sentence that says the model read a file (`I read src/a.ts`, `according to
 * README.md`) when the turn has no evidence on that file at all (no read, no write). Fenced code,
 * questions and negated or advisory sentences (`you could read x`, `I did not read y`) are no
 * claims; a file the turn wrote counts as known to it.
 */
export async function readClaimFlags(text: string, facts: TurnFacts): Promise<ChangeFlag[]> {
  const prose = withoutCodeBlocks(text).replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ');
  const flags: ChangeFlag[] = [];
  const seen = new Set<string>();
  for (const sentence of sentencesOf(prose)) {
    if (sentence.trim().endsWith('?')) continue;
    for (const match of sentence.matchAll(READ_PHRASE)) {
      const lead = leadWords(sentence, match.index);
      if (NOT_A_CLAIM.test(lead)) continue;
      const spelling = fileSpellings((match[1] as string).replaceAll('`', ''))[0];
      // A folder (`src/`) is no file read; a file name has a dot (`a.ts`, `.env`).
      if (!spelling || spelling.endsWith('/') || !/\./.test(spelling.split('/').at(-1) ?? '')) continue;
      const resolved = await canonicalOf(spelling, facts);
      if ('outside' in resolved) continue;
      const history = facts.histories.get(resolved.canonical);
      // Any evidence on the file this turn (a read, a write, a search that opened it) backs the claim.
      if (history) continue;
      if (facts.changes.some((row) => row.path === resolved.canonical || row.from === resolved.canonical))
        continue;
      if (seen.has(resolved.canonical)) continue;
      seen.add(resolved.canonical);
      flags.push({
        path: resolved.canonical,
        spelling,
        said: 'read',
        truth: 'never read this turn',
        statement: sentence.trim(),
      });
    }
  }
  return flags;
}
