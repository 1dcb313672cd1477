/** One piece of a request: a word (with its lower case), a quoted string, a comma, a colon or a bracket. */
export type Token =
  | { kind: 'word'; text: string; lower: string }
  | { kind: 'quote'; text: string }
  | { kind: 'comma' }
  | { kind: 'colon' }
  | { kind: 'open' }
  | { kind: 'close' };

/** Thrown inside the parser when the wording is not certain; never escapes it. */
export class Unsure extends Error {}

export const unsure = (): never => {
  throw new Unsure();
};

const QUOTES: Record<string, string> = { '"': '"', '“': '”', '„': '“', '«': '»', '‘': '’' };
// The curly apostrophe as \u escapes: the CLI bundle stays ASCII (scripts/ascii-bundle.mjs).
const WORD = /[\p{L}\p{N}#][\p{L}\p{N}._~#'\u2019-]*/uy;
const SINGLE_QUOTED = /'([^']+)'(?=[\s,;:.!]|$)/y;

/** Words, quoted strings, commas, colons and round brackets; undefined on punctuation the grammar has no use for. */
export function tokenize(request: string): Token[] | undefined {
  const text = request
    .normalize('NFC')
    .replace(/[\s.!?]+$/u, '')
    .trim();
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at] as string;
    if (/\s/u.test(char)) at++;
    else if (char === ',' || char === ';') {
      tokens.push({ kind: 'comma' });
      at++;
    } else if (char === ':') {
      tokens.push({ kind: 'colon' });
      at++;
    } else if (char === '(' || char === ')') {
      // "3 suites (3 tests each)": the parser takes a bracket only around a children clause.
      tokens.push({ kind: char === '(' ? 'open' : 'close' });
      at++;
    } else if (char === '&') {
      tokens.push({ kind: 'word', text: 'and', lower: 'and' });
      at++;
    } else if (QUOTES[char]) {
      const end = text.indexOf(QUOTES[char] as string, at + 1);
      const quoted = end < 0 ? '' : text.slice(at + 1, end).trim();
      if (!quoted) return undefined;
      tokens.push({ kind: 'quote', text: quoted.replace(/\s+/gu, ' ') });
      at = end + 1;
    } else if (char === "'") {
      SINGLE_QUOTED.lastIndex = at;
      const match = SINGLE_QUOTED.exec(text);
      const quoted = match?.[1]?.trim();
      if (!match || !quoted) return undefined;
      tokens.push({ kind: 'quote', text: quoted.replace(/\s+/gu, ' ') });
      at += match[0].length;
    } else {
      WORD.lastIndex = at;
      const match = WORD.exec(text);
      if (!match) return undefined;
      tokens.push({ kind: 'word', text: match[0], lower: match[0].toLowerCase() });
      at += match[0].length;
    }
  }
  return tokens;
}

/** A position in a request's tokens, with rewinding steps. */
export class TokenCursor {
  protected at = 0;

  constructor(protected readonly tokens: Token[]) {}

  protected word(offset = 0): string | undefined {
    const token = this.tokens[this.at + offset];
    return token?.kind === 'word' ? token.lower : undefined;
  }

  protected kind(offset = 0): Token['kind'] | undefined {
    return this.tokens[this.at + offset]?.kind;
  }

  protected phraseAt(phrase: string[]): boolean {
    return phrase.every((part, index) => this.word(index) === part);
  }

  /** Runs a step; on doubt, rewinds and says so with undefined. */
  protected attempt<T>(step: () => T): T | undefined {
    const start = this.at;
    const mark = this.mark();
    try {
      return step();
    } catch (error) {
      if (!(error instanceof Unsure)) throw error;
      this.rewind(start, mark);
      return undefined;
    }
  }

  /** What a subclass must restore on a rewind besides the position (a count of things seen). */
  protected mark(): number {
    return 0;
  }

  protected rewind(at: number, _mark: number): void {
    this.at = at;
  }

  get done(): boolean {
    return this.at >= this.tokens.length;
  }

  protected tokenLower(index: number): string | undefined {
    const token = this.tokens[index];
    return token?.kind === 'word' ? token.lower : undefined;
  }
}

/**
 * Words that are grammar, never part of a type. Number words among them: in "a thousand and
 * one tests" `thousand` is no type (it was read as 1 thousand and 1 test).
 */
export const GRAMMAR = new Set(
  (
    'with and in under inside within into to for each apiece called named titled per plus it them total all ' +
    'of or but except without not no nor on at from by that which where having containing the a an is are ' +
    'than more less some few several many any every please also as well one new single altogether between ' +
    'their its me us some whose only just about around approximately roughly up least most dozen hundred half ' +
    'thousand thousands million millions billion billions dozens hundreds'
  ).split(' '),
);
/** Types too vague to plan for ("2 things"). */
export const VAGUE = new Set(
  'thing things item items stuff entity entities object objects resource resources record records data'.split(
    ' ',
  ),
);
/** Words that name a scope rather than a parent ("in project alpha-shop"). */
export const SCOPE_WORDS = new Set(
  'project projects workspace workspaces org orgs organization organizations organisation organisations team teams tenant tenants space spaces'.split(
    ' ',
  ),
);
// `on`: "2 comments on post 1", as comments, reviews and votes are said to be.
export const PREPOSITIONS = new Set(['in', 'under', 'inside', 'within', 'into', 'to', 'for', 'on']);
export const WITH_WORDS = new Set(['with', 'containing', 'having']);
export const TITLE_WORDS = new Set(['called', 'named', 'titled']);
export const LEADING = [
  'can you',
  'could you',
  'would you',
  'please',
  'kindly',
  'i need',
  'we need',
  'i want',
  'we want',
  "i'd like",
  'i would like',
  'give me',
  'make me',
  'create me',
  'set up',
  'create',
  'make',
  'add',
  'generate',
  'seed',
  'prepare',
].map((phrase) => phrase.split(' '));
export const TRAILING = ['please', 'for me', 'for us', 'thanks', 'thank you'].map((phrase) =>
  phrase.split(' '),
);

export const SLUG = /^[\p{L}\p{N}][\p{L}\p{N}._~-]*$/u;
export const TYPE_WORD = /^\p{L}[\p{L}_-]*$/u;

/** A name that is certainly not an English word: it has a digit, `-`, `_` or `.` (`alpha-shop`). */
export const slugLike = (text: string) =>
  SLUG.test(text) && /[\p{N}._~-]/u.test(text) && !/^\p{N}+$/u.test(text);
