import { isGenericHead, singular, spelledAsWords, typeWords } from '../../core/type-words.js';
import { ChildrenClauses, type DraftEntity } from './children-clauses.js';
import {
  type ContractEntity,
  contractIssues,
  type FishContract,
  MAX_COUNT,
  pluralOf,
} from './fish-contract.js';
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
  entity: DraftEntity;
  children: DraftEntity[];
  /** "10 tests in a new suite": the one parent made for the items, read as "a suite with 10 tests". */
  container?: DraftEntity;
}

interface ScopeSeen {
  name: string;
  type?: string;
  /** Token index right after the clause, and whether it opened the request. */
  end: number;
  leading: boolean;
}

class ContractParser extends ChildrenClauses {
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
    if (!this.certainType(type)) unsure();
    return type;
  }

  /**
   * Whether a type of several words — spaced (`test cases`) or joined (`smoke-tests`,
   * `testCases`) — names one thing: the app knows it by exactly those words, or what is left
   * when heads that only say "one of" (core/type-words' generic heads: `cases`, `records`) are
   * taken off is one word or such a known type. A qualifier is not the thing: `flaky test
   * cases` and `smoke-tests` were read, and matched to `/tests` by their head noun, so plain
   * tests were made and reported as the flaky ones asked for.
   */
  private certainType(type: string): boolean {
    const said = [...typeWords(type)];
    const known = (words: string[]) =>
      (this.knownTypes ?? []).some((name) => typeWords(name).join(' ') === words.join(' '));
    for (;;) {
      if (said.length <= 1 || known(said)) return true;
      if (!isGenericHead(said.at(-1) as string)) return false;
      said.pop();
    }
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

  protected entity(): DraftEntity {
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
      // Items in a new container take no children: in "5 tests in a new suite with 2 steps each"
      // the steps may be the suite's or each test's.
      const childless = draft.children.length === 0 && !draft.container;
      // A colon after the item introduces its children as a comma does: "3 suites: 3 tests each".
      const separator = this.kind() === 'comma' || this.kind() === 'colon';
      const commaEach = separator && this.word(1) === 'each' && WITH_WORDS.has(this.word(2) ?? '');
      if (childless && (commaEach || (word && (word === 'each' || WITH_WORDS.has(word))))) {
        draft.children = this.withClause(draft.entity);
        continue;
      }
      // `3 suites and 2 tests in each`, `2 suites, 3 tests per suite`: children by their marker.
      if (childless && (separator || word === 'and')) {
        const children = this.attempt(() => this.andEachClause(draft.entity));
        if (!children) break;
        draft.children = children;
        continue;
      }
      if (childless && this.kind() === 'open') {
        const children = this.attempt(() => this.bracketedChildren(draft.entity));
        if (!children) break;
        draft.children = children;
        continue;
      }
      // Children first ("2 tests with 3 steps each in a new suite") would nest three levels.
      if (childless && word && PREPOSITIONS.has(word) && !located) {
        const container = this.attempt(() => this.newContainer());
        if (container) {
          draft.container = container;
          located = true;
          continue;
        }
      }
      if (word && PREPOSITIONS.has(word) && !located) {
        const place = this.attempt(() => {
          const found = this.location();
          // After a children clause an existing parent may be the children's or the item's:
          // "2 suites with 2 tests in suite 1" (the first of them?). Before it, it is the item's.
          if ('parent' in found && draft.children.length > 0) unsure();
          return found;
        });
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

  /**
   * `in a new suite`, `under one brand-new suite called "Checkout"`, `to new suite`: ONE parent
   * made for the items. "New" is what says so: `in suite 101` and `in the suite` name one that
   * exists, `in a suite` may mean either, and `in 2 new suites` does not say how the items are
   * spread; all of those are left to `location` or the model.
   */
  private newContainer(): DraftEntity {
    this.at++;
    const count = this.count();
    if (count !== undefined && count !== 1) unsure();
    if (count === 1 && this.word() === 'single') this.at++;
    if (this.phraseAt(['brand', 'new'])) this.at += 2;
    else if (this.word() === 'new' || this.word() === 'brand-new') this.at++;
    else unsure();
    const type = this.type();
    // Without "a" or "one" only the word itself says one: `in new suite`, never `in new series`.
    if (count === undefined && !namesOneItem(type)) unsure();
    const titles = this.titles();
    if (titles && titles.length !== 1) unsure();
    return { type, count: 1, ...(titles ? { titles } : {}) };
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
        // One existing parent: `in suites #7` and `in suite 101-103` name several.
        if (singular(type) !== spelledAsWords(type) || /^\d+(?:-|\.\.)\d+$/.test(bare)) unsure();
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

/** A singular word with a plural of its own: `suite`, not `suites` or `series`. */
function namesOneItem(type: string): boolean {
  const said = spelledAsWords(type);
  return singular(said) === said && pluralOf(said) !== said;
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
    // "10 tests in a new suite" is "a suite with 10 tests": one contract for both wordings.
    const container: ContractEntity | undefined = draft.container && {
      ref: refOf(draft.container.type),
      ...draft.container,
    };
    if (container) entities.push(container);
    const parent: ContractEntity = {
      ref: refOf(draft.entity.type),
      ...draft.entity,
      ...(container ? { parent: { ref: container.ref }, perParent: true } : {}),
    };
    entities.push(parent);
    for (const child of draft.children)
      entities.push({ ref: refOf(child.type), ...child, parent: { ref: parent.ref } });
  }
  return entities;
}

/**
 * Reads a data request's structure when its wording is certain: counts (digits or words:
 * "two", "a dozen", "a"), types (singular or plural), children ("with 3 tests each", "in
 * it", "apiece", "per suite", ", each with …", "in total", in brackets: "(3 tests each)"), one
 * new parent ("10 tests in a new suite"), an existing parent ("in suite 101", "under suite #7"),
 * quoted titles, several items ("2 suites and 3 users"), and a scope ("in project alpha-shop",
 * "for alpha-shop"). Anything it is not sure of — vague counts, several children with no
 * marker, a scope between items, a parent that may or may not be new, a type with a qualifier
 * (`flaky test cases`, `smoke-tests`), a parent that names several (`in suites 1-3`) or is
 * named after a children clause (whose is it?) — is undefined.
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
