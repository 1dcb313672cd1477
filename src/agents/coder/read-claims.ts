import type { ChangeFlag } from './chat-record.js';
import { claimProse } from './claim-prose.js';
import { canonicalOf, type TurnFacts } from './flag-false-statements.js';
import { fileSpellings } from './mentioned-changes.js';
import { leadWords, sentencesOf } from './prose-sentences.js';
import { SEARCH_PHRASES, searchBacked } from './search-claims.js';

/** The file a read phrase names: a path token, perhaps in backticks. */
const FILE = '(`?[^\\s`,;()]+`?)';
/** What may stand between the phrase and the file: `both`, `the file`, `the code in`, `the contents of`. */
const BEFORE_FILE = String.raw`(?:both\s+)?(?:the\s+)?(?:file\s+|(?:code|contents?|source)\s+(?:in|of)\s+)?`;
/** One more file of the list that follows a read phrase: `I read a.ts, b.ts and README.md`. */
const NEXT_FILE = /^\s*(?:,\s*(?:and\s+)?|and\s+|&\s+)(?:the\s+file\s+)?(`?[^\s`,;()]+`?)/i;
/**
 * `I read X`, `I reviewed X`, `according to X`, `after reading X`, and the same in French,
 * Spanish, Portuguese, Italian and German (`j'ai lu X`, `he leído X`, `li o arquivo X`, `ho
 * letto X`, `ich habe X gelesen`, `laut X`): the file right after the phrase (German: before
 * its participle), and each file listed after it (`I read a.ts, b.ts and README.md`). The
 * replies the change checks read in those languages are read for reads too.
 */
const READ_PHRASES = [
  new RegExp(
    String.raw`\b(?:(?:I|I've|I\s+have|we|we've)\s+(?:also\s+|first\s+|carefully\s+|quickly\s+|then\s+)?(?:(?:re-?)?read(?:\s+(?:through|over))?|reviewed|inspected|examined|opened|checked|double-checked|scanned|skimmed(?:\s+through)?|studied|consulted|analy[sz]ed|looked\s+(?:at|through|over|into)|took\s+a\s+(?:quick\s+|close\s+|closer\s+)?look\s+at|(?:went|gone)\s+(?:through|over))|(?:after|while|when|by|from)\s+(?:reading|re-?reading|reviewing|inspecting|opening|checking|scanning|skimming|studying|consulting|analy[sz]ing|going\s+through|looking\s+(?:at|through|over))|having\s+(?:read|reviewed|inspected|examined|opened|checked|scanned|studied|analy[sz]ed|gone\s+through|looked\s+(?:at|through|over))|according\s+to|as\s+(?:stated|described|shown|documented|noted|specified)\s+in|based\s+on|per)\s+${BEFORE_FILE}${FILE}`,
    'gi',
  ),
  // The file as the one speaking, opening a sentence or after "as": `README.md says …`, `As
  // README.md states, …`, `From README.md: …`, `Reading src/a.ts, I …`, `I see in README.md that …`.
  new RegExp(
    String.raw`(?:^\s*(?:[-*\u2022]\s*)?(?:the\s+file\s+)?|\bas\s+(?:the\s+file\s+)?)${FILE}\s+(?:says|said|states|stated|specifies|documents|notes|mentions|shows|showed|explains)\b|^\s*(?:from|in)\s+(?:the\s+file\s+)?${FILE}\s*:|^\s*(?:re-?)?reading\s+(?:the\s+file\s+)?${FILE}\s*,|\bI\s+(?:see|saw|found|noticed)\s+in\s+(?:the\s+file\s+)?${FILE}\s+that\b`,
    'gi',
  ),
  // Without a subject, opening a sentence or a bullet, in a past form only (a bare `Read
  // README.md` may be advice): `Reviewed src/a.ts and README.md.`, `Looking at src/a.ts, …`.
  new RegExp(
    String.raw`^\s*(?:[-*\u2022]\s*)?(?:(?:also|then|first)\s+)?(?:reviewed|inspected|examined|opened|checked|scanned|skimmed|studied|consulted|analy[sz]ed|looked\s+(?:at|through|over|into)|looking\s+(?:at|through|over)|went\s+(?:through|over)|going\s+through)\s+${BEFORE_FILE}${FILE}`,
    'gi',
  ),
  // A label: `Files read: src/a.ts, README.md`, `- **Read:** src/a.ts`, `Reviewed files: …`.
  new RegExp(
    String.raw`^\s*(?:[-*\u2022]\s*)?(?:\*\*|__)?(?:files?\s+(?:read|reviewed|inspected|examined|opened|consulted)|(?:read|reviewed|inspected|examined|opened|consulted)(?:\s+files?)?)\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*${FILE}`,
    'gi',
  ),
  // French: j'ai lu / examiné / consulté / parcouru / ouvert (le fichier) X; d'après X, selon X.
  new RegExp(
    String.raw`(?:(?:\bj['\u2019]ai|\bnous\s+avons)\s+(?:d['\u2019]abord\s+)?(?:lu|relu|examin\u00e9|consult\u00e9|parcouru|ouvert|v\u00e9rifi\u00e9)|\bd['\u2019]apr\u00e8s|\bselon)\s+(?:le\s+fichier\s+|le\s+|la\s+|l['\u2019])?${FILE}`,
    'giu',
  ),
  // Spanish: he/hemos leído / revisado / examinado / abierto (el archivo) X; según X.
  new RegExp(
    String.raw`(?:\b(?:he|hemos)\s+(?:le\u00eddo|revisado|examinado|abierto|consultado)|\bseg\u00fan)\s+(?:el\s+archivo\s+|el\s+fichero\s+|el\s+)?${FILE}`,
    'giu',
  ),
  // Portuguese: li / revisei / examinei / abri (o arquivo) X; de acordo com X, segundo X.
  new RegExp(
    String.raw`(?:\b(?:eu\s+)?(?:li|revisei|examinei|abri|consultei)|\bde\s+acordo\s+com|\bsegundo)\s+(?:o\s+arquivo\s+|o\s+ficheiro\s+|o\s+)?${FILE}`,
    'giu',
  ),
  // Italian: ho letto / esaminato / aperto / controllato / consultato (il file) X; secondo X.
  new RegExp(
    String.raw`\bho\s+(?:letto|esaminato|aperto|controllato|consultato)\s+(?:il\s+file\s+|il\s+|lo\s+|l['\u2019])?${FILE}`,
    'giu',
  ),
  // German: ich habe / wir haben (die Datei) X gelesen / geprüft / geöffnet / durchgesehen; laut X, gemäß X.
  new RegExp(
    String.raw`(?:\b(?:ich\s+habe|wir\s+haben)\s+(?:die\s+Datei\s+|zuerst\s+)?${FILE}\s+(?:gelesen|gepr\u00fcft|ge\u00f6ffnet|durchgesehen|angesehen)(?![\p{L}])|\b(?:laut|gem\u00e4\u00df)\s+(?:der\s+Datei\s+)?${FILE})`,
    'giu',
  ),
];
const NOT_A_CLAIM =
  /\b(not|never|didn't|haven't|hasn't|couldn't|can't|without|will|would|should|could|can|may|might|must|need|going|plan|if|to|you|please|no|pas|jamais|n['\u2019]|nunca|n\u00e3o|non|mai|nicht|kein|nie)\b/i;

/** The files the chat's earlier turns read (their `fs_read` calls, resolved as any spelling is). */
async function readEarlier(facts: TurnFacts): Promise<Set<string>> {
  const read = new Set<string>();
  for (const turn of facts.earlier)
    for (const spelling of turn.read ?? []) {
      const resolved = await canonicalOf(spelling, facts);
      if (!('outside' in resolved)) read.add(resolved.canonical);
    }
  return read;
}

/**
 * A read phrase's file, and the files listed right after it (`… a.ts, b.ts and README.md`), as
 * spelled. A folder only where searched (`I grepped src/ for TODO`).
 */
function listedFiles(first: string, after: string, folders: boolean): string[] {
  const files: string[] = [];
  let rest = after;
  let token: string | undefined = first;
  while (token !== undefined) {
    const spelling = fileSpellings(token.replaceAll('`', ''))[0];
    // A folder (`src/`) is no file read; a file name has a dot (`a.ts`, `.env`).
    if (!spelling || (!folders && (spelling.endsWith('/') || !/\./.test(spelling.split('/').at(-1) ?? ''))))
      break;
    files.push(spelling);
    const next = NEXT_FILE.exec(rest);
    token = next?.[1];
    rest = next ? rest.slice(next[0].length) : '';
  }
  return files;
}

/**
 * Read claims: a sentence that says the model read a file (`I read src/a.ts`, `according to
 * README.md`) when the turn has no evidence on that file at all (no read, no write), or that it
 * searched a file or folder (`I grepped src/ for TODO`) no search or read covered (see
 * `search-claims.ts`). Fenced code, questions and negated or advisory sentences (`you could
 * read x`, `I did not read y`) are no claims; a file the turn wrote counts as known to it.
 */
export async function readClaimFlags(text: string, facts: TurnFacts): Promise<ChangeFlag[]> {
  const prose = claimProse(text);
  const flags: ChangeFlag[] = [];
  const seen = new Set<string>();
  // Resolved once, and only when a claim has no call of this turn behind it.
  let earlierReads: Promise<Set<string>> | undefined;
  for (const sentence of sentencesOf(prose)) {
    if (sentence.trim().endsWith('?')) continue;
    const matches = [
      ...READ_PHRASES.flatMap((phrase) =>
        [...sentence.matchAll(phrase)].map((match) => ({ match, search: false })),
      ),
      ...SEARCH_PHRASES.flatMap((phrase) =>
        [...sentence.matchAll(phrase)].map((match) => ({ match, search: true })),
      ),
    ];
    for (const { match, search } of matches) {
      const lead = leadWords(sentence, match.index);
      if (NOT_A_CLAIM.test(lead)) continue;
      const file = match.slice(1).find((group) => group !== undefined);
      if (file === undefined) continue;
      for (const spelling of listedFiles(file, sentence.slice(match.index + match[0].length), search)) {
        const resolved = await canonicalOf(spelling, facts);
        if ('outside' in resolved) continue;
        if (seen.has(resolved.canonical)) continue;
        const { canonical } = resolved;
        if (search) {
          // A search of a file or a folder: any search or evidence covering it (see `searchBacked`).
          if (await searchBacked(canonical, facts)) continue;
        } else {
          // Any evidence on the file this turn (a read, a write) backs the claim.
          if (facts.histories.has(canonical)) continue;
          if (facts.changes.some((row) => row.path === canonical || row.from === canonical)) continue;
          // Read in an earlier turn of the chat: "As README.md says" in turn 2 rests on turn 1's read.
          earlierReads ??= readEarlier(facts);
          if ((await earlierReads).has(canonical)) continue;
        }
        seen.add(canonical);
        flags.push({
          path: canonical,
          spelling,
          said: 'read',
          truth: search ? 'never read or searched this turn' : 'never read this turn',
          statement: sentence.trim(),
        });
      }
    }
  }
  return flags;
}
