import { sameType } from '../../core/type-words.js';
import type { ContractEntity } from './fish-contract.js';
import { TokenCursor, unsure, WITH_WORDS } from './request-tokens.js';

/** An entity as read, before the contract gives it a ref. */
export type DraftEntity = Omit<ContractEntity, 'ref'>;

/**
 * The clauses that give an item its children, and the markers that say whether a count is per
 * parent ("each", "per suite", "in it") or a total ("in total", "between them"). The item
 * grammar (parse-fish-contract.ts) supplies how one entity is read.
 */
export abstract class ChildrenClauses extends TokenCursor {
  protected abstract entity(): DraftEntity;

  /** `with 3 tests each`, `, each with 3 tests`, `with 2 tests and a tag in it`, `with 6 tests in total`. */
  protected withClause(parent: DraftEntity): DraftEntity[] {
    if (this.kind() === 'comma' || this.kind() === 'colon') this.at++;
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
  protected andEachClause(parent: DraftEntity): DraftEntity[] {
    if (this.kind() === 'comma' || this.kind() === 'colon') this.at++;
    if (this.word() === 'and') this.at++;
    return this.markedChildren(parent);
  }

  /** `3 tests each`, `3 tests per suite`: one child entity and the marker that makes it one. */
  protected markedChildren(parent: DraftEntity): DraftEntity[] {
    const child = this.entity();
    if (this.marker(parent.type) !== 'each') unsure();
    return [{ ...child, perParent: true }];
  }

  /**
   * `3 suites (3 tests each)`, `(with 2 tests each)`, `(each with 3 tests)`: a children clause
   * in brackets, read as it would be read without them. A bare `(3 tests)` says neither "each"
   * nor "in total", so it stays unsure as `3 suites, 3 tests` does.
   */
  protected bracketedChildren(parent: DraftEntity): DraftEntity[] {
    this.at++;
    const word = this.word();
    const children =
      word === 'each' || WITH_WORDS.has(word ?? '') ? this.withClause(parent) : this.markedChildren(parent);
    if (this.kind() !== 'close') unsure();
    this.at++;
    return children;
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
    if (word === 'in' || word === 'under' || word === 'inside' || word === 'on') {
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
}
