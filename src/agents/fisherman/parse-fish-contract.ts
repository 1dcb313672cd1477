import { sameType, singular, typeWords } from '../../core/type-words.js';
import { type ContractEntity, contractIssues, type FishContract, MAX_COUNT } from './fish-contract.js';
import { readCount } from './read-count.js';
import {
  GRAMMAR,
  LEADING,
  PREPOSITIONS,
  SCOPE_WORDS,
  SLUG,
  slugLike,
  TITLE_WORDS,
  type Token,
  TokenCursor,
  TRAILING,
  TYPE_WORD,
  tokenize,
  Unsure,
  unsure,
  VAGUE,
  WITH_WORDS,
} from './request-tokens.js';

export interface ParseFishContractOptions {
  /**
   * The resource names the app knows (the endpoint index's). A type of several words
   * (`test suites`) is read only when it names one of them exactly, or ends in a word that
   * only says "one of" (`test cases`); without them, only the latter.
   */
  knownTypes?: readonly string[];
}

interface Draft {
  entity: Omit<ContractEntity, 'ref'>;
  children: Omit<ContractEntity, 'ref'>[];
}

interface ScopeSeen {
  name: string;
  type?: string;
  /** Token index right after the clause, and whether it opened the request. */
  end: number;
  leading: boolean;
}

class ContractParser extends TokenCursor {
  readonly scopes: ScopeSeen[] = [];

  constructor(
    tokens: Token[],
    private readonly knownTypes: readonly string[] | undefined,
  ) {
    super(tokens);
  }

  protected override rewind(at: number, mark: number): void {
    super.rewind(at, mark);
    this.scopes.length = mark;
  }

  protected override mark(): number {
    return this.scopes.length;
  }

  skipLeading(): void {
    for (let found = true; found; ) {
      found = false;
      for (const phrase of LEADING)
        if (this.phraseAt(phrase)) {
          this.at += phrase.length;
          found = true;
        }
    }
  }

  dropTrailing(): void {
    for (let found = true; found; ) {
      found = false;
      for (const phrase of TRAILING) {
        const from = this.tokens.length - phrase.length;
        if (from > this.at && phrase.every((part, index) => this.tokenLower(from + index) === part)) {
          this.tokens.length = from;
          found = true;
        }
      }
      if (this.tokens.at(-1)?.kind === 'comma') {
        this.tokens.length -= 1;
        found = true;
      }
    }
  }

  /** "in project alpha-shop, …" / "for project alpha-shop: …" before the items. */
  leadingScope(): void {
    if (!PREPOSITIONS.has(this.word() ?? '')) return;
    this.attempt(() => {
      const place = this.location();
      if (!('scope' in place) || (this.kind() !== 'comma' && this.kind() !== 'colon')) unsure();
      this.at++;
      (this.scopes.at(-1) as ScopeSeen).leading = true;
    });
  }

  request(): Draft[] {
    const items = [this.item()];
    while (!this.done) {
      const next = this.attempt(() => {
        this.separator();
        return this.item();
      });
      if (next) {
        items.push(next);
        continue;
      }
      // A closing ", in project alpha-shop".
      if (this.kind() === 'comma') this.at++;
      const place = this.location();
      if (!('scope' in place) || !this.done) unsure();
    }
    return items;
  }

  private separator(): void {
    if (this.kind() === 'comma') this.at++;
    if (this.word() === 'and' || this.word() === 'plus') this.at++;
    else if (this.phraseAt(['as', 'well', 'as'])) this.at += 3;
    else if (this.tokens[this.at - 1]?.kind !== 'comma') unsure();
  }

  private count(): number | undefined {
    const read = readCount(
      this.tokens.slice(this.at, this.at + 4).map((token) => (token.kind === 'word' ? token.lower : '')),
    );
    if (read === undefined) return undefined;
    if (read === 'vague') return unsure();
    if (read.value < 1 || read.value > MAX_COUNT) unsure();
    this.at += read.words;
    return read.value;
  }

  /** A type of one to three words; several words only when certainly one type. */
  private type(most = 3): string {
    const words: string[] = [];
    while (words.length < most) {
      const word = this.word();
      if (word === undefined || !TYPE_WORD.test(word) || GRAMMAR.has(word) || readCount([word]) !== undefined)
        break;
      // `testCases` keeps its word break (core/type-words' spelledAsWords): lower-cased whole
      // it would name a `testcase`, which no endpoint is.
      const { text } = this.tokens[this.at] as { text: string };
      words.push(/\p{Ll}\p{Lu}/u.test(text) ? text : word);
      this.at++;
    }
    if (words.length === 0) unsure();
    const type = words.join(' ');
    if (words.length === 1 && VAGUE.has(type)) unsure();
    if (words.length > 1 && !this.certainType(type, words)) unsure();
    return type;
  }

  private certainType(type: string, words: string[]): boolean {
    // `test cases`: the head only says "one of" a test (core/type-words' generic heads).
    if (sameType(type, words.at(-2) as string)) return true;
    const said = typeWords(type).join(' ');
    return (this.knownTypes ?? []).some((known) => typeWords(known).join(' ') === said);
  }

  /** `"A" and "B"`, `called "Smoke"`, `named Smoke`, `with title "Smoke"`. */
  private titles(): string[] | undefined {
    const start = this.at;
    if (this.phraseAt(['with', 'title']) || this.phraseAt(['with', 'the', 'title'])) {
      this.at += this.word(1) === 'the' ? 3 : 2;
      const quoted = this.tokens[this.at];
      if (quoted?.kind !== 'quote') unsure();
      this.at++;
      return [(quoted as { text: string }).text];
    }
    const introduced = TITLE_WORDS.has(this.word() ?? '');
    if (introduced) this.at++;
    const first = this.tokens[this.at];
    if (first?.kind === 'word' && introduced && !GRAMMAR.has(first.lower) && !WITH_WORDS.has(first.lower)) {
      this.at++;
      return [first.text];
    }
    if (first?.kind !== 'quote') {
      this.at = start;
      if (introduced) unsure();
      return undefined;
    }
    this.at++;
    const titles = [first.text];
    for (;;) {
      const more = this.attempt(() => {
        if (this.kind() === 'comma') this.at++;
        if (this.word() === 'and') this.at++;
        const next = this.tokens[this.at];
        if (next?.kind !== 'quote') unsure();
        this.at++;
        return (next as { text: string }).text;
      });
      if (more === undefined) return titles;
      titles.push(more);
    }
  }

  private entity(): Omit<ContractEntity, 'ref'> {
    let count = this.count();
    if (this.word() === 'new') this.at++;
    if (count === 1 && this.word() === 'single') this.at++;
    const type = this.type();
    const titles = this.titles();
    if (count === undefined) {
      if (!titles) unsure();
      count = (titles as string[]).length;
    } else if (titles && titles.length !== count) unsure();
    return { type, count: count as number, ...(titles ? { titles } : {}) };
  }

  private item(): Draft {
    const draft: Draft = { entity: this.entity(), children: [] };
    let located = false;
    while (!this.done) {
      const word = this.word();
      const commaEach =
        this.kind() === 'comma' && this.word(1) === 'each' && WITH_WORDS.has(this.word(2) ?? '');
      if (draft.children.length === 0 && (commaEach || (word && (word === 'each' || WITH_WORDS.has(word))))) {
        draft.children = this.withClause(draft.entity);
        continue;
      }
      // `3 suites and 2 tests in each`, `2 suites, 3 tests per suite`: children by their marker.
      if (draft.children.length === 0 && (this.kind() === 'comma' || word === 'and')) {
        const children = this.attempt(() => this.andEachClause(draft.entity));
        if (!children) break;
        draft.children = children;
        continue;
      }
      if (word && PREPOSITIONS.has(word) && !located) {
        const place = this.attempt(() => this.location());
        if (!place) break;
        if ('parent' in place) {
          draft.entity.parent = place.parent;
          located = true;
        }
        continue;
      }
      break;
    }
    return draft;
  }

  /** `with 3 tests each`, `, each with 3 tests`, `with 2 tests and a tag in it`, `with 6 tests in total`. */
  private withClause(parent: Omit<ContractEntity, 'ref'>): Omit<ContractEntity, 'ref'>[] {
    if (this.kind() === 'comma') this.at++;
    const eachFirst = this.word() === 'each';
    if (eachFirst) this.at++;
    if (!WITH_WORDS.has(this.word() ?? '')) unsure();
    this.at++;
    const children = [this.entity()];
    for (;;) {
      const next = this.attempt(() => {
        // After ", each with …" a comma closes the list: ", and 3 users" is another item.
        if (this.kind() === 'comma') {
          if (eachFirst) unsure();
          this.at++;
        }
        if (this.word() === 'and') this.at++;
        else if (this.tokens[this.at - 1]?.kind !== 'comma') unsure();
        return this.entity();
      });
      if (!next) break;
      children.push(next);
    }
    const marker = this.marker(parent.type);
    if (marker === 'total' && eachFirst) unsure();
    if (marker === undefined && !eachFirst && children.length > 1) unsure();
    const perParent = marker !== 'total';
    return children.map((child) => ({ ...child, perParent }));
  }

  /**
   * `and 2 tests in each`, `, 3 tests per suite`, `and 3 tests for every suite`: a second entity
   * is the first one's children only when a marker says "each"; without one (`2 suites and 3
   * users`) it is another item, and the caller rewinds.
   */
  private andEachClause(parent: Omit<ContractEntity, 'ref'>): Omit<ContractEntity, 'ref'>[] {
    if (this.kind() === 'comma') this.at++;
    if (this.word() === 'and') this.at++;
    const child = this.entity();
    if (this.marker(parent.type) !== 'each') unsure();
    return [{ ...child, perParent: true }];
  }

  private marker(parentType: string): 'each' | 'total' | undefined {
    const word = this.word();
    const next = this.word(1);
    const namesParent = (offset: number) => {
      const said = this.word(offset);
      return said !== undefined && (sameType(said, parentType) || sameType(parentType, said));
    };
    if (word === 'each' || word === 'apiece') {
      this.at += next === 'one' ? 2 : 1;
      return 'each';
    }
    if (word === 'altogether') {
      this.at++;
      return 'total';
    }
    if ((word === 'in' || word === 'between') && (next === 'total' || next === 'all' || next === 'them')) {
      if (word === 'in' && next === 'them') return undefined;
      this.at += 2;
      return 'total';
    }
    // `for each (suite)`, `in every suite`, `for every one`.
    if ((word === 'for' && next === 'each') || ((word === 'in' || word === 'for') && next === 'every')) {
      this.at += 2;
      if (this.word() === 'one') this.at++;
      else if (namesParent(0)) this.at++;
      else if (next === 'every') unsure();
      return 'each';
    }
    if (word === 'in' || word === 'under' || word === 'inside') {
      if (next === 'it') {
        this.at += 2;
        return 'each';
      }
      if (next === 'each') {
        this.at += 2;
        if (this.word() === 'one') this.at++;
        else if (namesParent(0)) this.at++;
        return 'each';
      }
    }
    if (word === 'per') {
      if (!namesParent(1)) unsure();
      this.at += 2;
      return 'each';
    }
    return undefined;
  }

  /** `in project alpha-shop`, `in the alpha-shop project`, `in alpha-shop`, `in suite 101`, `under suite #7`. */
  private location(): { scope: string } | { parent: { type: string; id: string } } {
    if (!PREPOSITIONS.has(this.word() ?? '')) unsure();
    this.at++;
    if (this.word() === 'the') this.at++;
    const first = this.tokens[this.at];
    const second = this.tokens[this.at + 1];
    const seen = (name: string, type?: string) => {
      this.scopes.push({ name, ...(type ? { type } : {}), end: this.at, leading: false });
      return { scope: name };
    };
    if (first?.kind === 'word' && SCOPE_WORDS.has(first.lower)) {
      if (
        second?.kind === 'quote' ||
        (second?.kind === 'word' && SLUG.test(second.text) && !GRAMMAR.has(second.lower))
      ) {
        this.at += 2;
        return seen(second.text, singular(first.lower));
      }
      unsure();
    }
    if (
      first?.kind === 'word' &&
      second?.kind === 'word' &&
      SCOPE_WORDS.has(second.lower) &&
      SLUG.test(first.text)
    ) {
      if (GRAMMAR.has(first.lower)) unsure();
      this.at += 2;
      return seen(first.text, singular(second.lower));
    }
    if (first?.kind === 'word' && slugLike(first.text) && !this.idFollows(1)) {
      this.at++;
      return seen(first.text);
    }
    // The id may itself look like a word of a type (`suite login-flow`): the longest type that leaves one.
    for (const most of [3, 2, 1]) {
      const parent = this.attempt(() => {
        const type = this.type(most);
        const id = this.tokens[this.at];
        if (id?.kind !== 'word' || !/^#?[\p{L}\p{N}][\p{L}\p{N}._~-]*$/u.test(id.text)) return unsure();
        const bare = id.text.replace(/^#/, '');
        if (!(id.text.startsWith('#') || /[\p{N}._~-]/u.test(bare))) unsure();
        this.at++;
        return { type, id: bare };
      });
      if (parent) return { parent };
    }
    return unsure();
  }

  private idFollows(offset: number): boolean {
    const token = this.tokens[this.at + offset];
    return token?.kind === 'word' && /^#?\p{N}/u.test(token.text);
  }
}

function refsFor(drafts: Draft[]): ContractEntity[] {
  const entities: ContractEntity[] = [];
  const used = new Set<string>();
  const refOf = (type: string) => {
    const base = typeWords(type).join('-') || 'item';
    let ref = base;
    for (let n = 2; used.has(ref); n++) ref = `${base}-${n}`;
    used.add(ref);
    return ref;
  };
  for (const draft of drafts) {
    const parent: ContractEntity = { ref: refOf(draft.entity.type), ...draft.entity };
    entities.push(parent);
    for (const child of draft.children)
      entities.push({ ref: refOf(child.type), ...child, parent: { ref: parent.ref } });
  }
  return entities;
}

/**
 * Reads a data request's structure when its wording is certain: counts (digits or words:
 * "two", "a dozen", "a"), types (singular or plural), children ("with 3 tests each", "in
 * it", "apiece", "per suite", ", each with …", "in total"), an existing parent ("in suite
 * 101", "under suite #7"), quoted titles, several items ("2 suites and 3 users"), and a
 * scope ("in project alpha-shop", "for alpha-shop"). Anything it is not sure of — vague
 * counts, several children with no marker, a scope between items — is undefined.
 */
export function parseFishContract(
  request: string,
  options: ParseFishContractOptions = {},
): FishContract | undefined {
  const tokens = tokenize(request);
  if (!tokens || tokens.length === 0) return undefined;
  const parser = new ContractParser(tokens, options.knownTypes);
  try {
    parser.skipLeading();
    parser.dropTrailing();
    parser.leadingScope();
    parser.skipLeading();
    const drafts = parser.request();
    if (!parser.done) return undefined;
    const scopes = parser.scopes;
    // With several items, a scope between them may belong to one of them only: unsure.
    if (drafts.length > 1 && scopes.some((scope) => !scope.leading && scope.end !== tokens.length))
      return undefined;
    const names = new Set(scopes.map((scope) => scope.name.toLowerCase()));
    const scopeTypes = new Set(scopes.flatMap((scope) => (scope.type ? [scope.type] : [])));
    if (names.size > 1 || scopeTypes.size > 1) return undefined;
    const contract: FishContract = { entities: refsFor(drafts) };
    if (scopes[0]) contract.scope = scopes[0].name;
    const scopeType = [...scopeTypes][0];
    if (scopeType) contract.scopeType = scopeType;
    return contractIssues(contract).length === 0 ? contract : undefined;
  } catch (error) {
    if (error instanceof Unsure) return undefined;
    throw error;
  }
}
