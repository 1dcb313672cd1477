import { describe, expect, it } from 'vitest';
import { type ClaimResolver, evidenceView, verifyAgainstEffects } from '../../../src/core/agent/claims.js';
import { sameType, singular } from '../../../src/core/type-words.js';
import { ledgerOf, verify, why } from './claim-fixtures.js';

const post1 = { key: '/posts/1', id: '1', type: 'post', observed: { title: 'Hello' } };
const comment1 = { key: '/comments/1', id: '1', type: 'comment', observed: { title: 'Nice' } };

describe('claims are matched to net effects, never to words', () => {
  it('collections that both number from 1: post 1 and comment 1 are two resources, each verified by its own create', async () => {
    const entries = ledgerOf([{ kind: 'created', ...post1 }], [{ kind: 'created', ...comment1 }]);
    const verdicts = await verify(
      [
        { target: '1', type: 'post', effect: 'created' },
        { target: '1', type: 'comment', effect: 'created' },
      ],
      entries,
    );
    expect(verdicts.map((verdict) => verdict.verified)).toEqual([true, true]);
    expect(verdicts.map((verdict) => verdict.verified && verdict.item.resource)).toEqual([
      '/posts/1',
      '/comments/1',
    ]);
  });

  it('an id of the same number but another type is a substitution, and names the spelling that would match', async () => {
    const verdicts = await verify(
      [{ target: '1', type: 'milestone', effect: 'created' }],
      ledgerOf([{ kind: 'created', ...comment1 }]),
    );
    expect(why(verdicts[0])).toBe(
      'substitution: a milestone was claimed, but 1 is comment 1 (/comments/1), from call #1; claim "created comment 1" if that is what you meant',
    );
  });

  it('a head noun names the type: "test case" is a test', async () => {
    const verdicts = await verify(
      [{ target: '5001', type: 'test case', effect: 'created' }],
      ledgerOf([{ kind: 'created', key: '/api/x/tests/5001', id: '5001', type: 'test' }]),
    );
    expect(verdicts[0]?.verified).toBe(true);
  });

  it('a read never proves a create, an update or a delete', async () => {
    const entries = ledgerOf([{ kind: 'read', ...post1 }]);
    for (const effect of ['created', 'updated', 'deleted', 'changed'] as const) {
      const [verdict] = await verify([{ target: '1', type: 'post', effect }], entries);
      expect(why(verdict)).toMatch(/was only read in this run, never/);
    }
    const [read] = await verify([{ target: '1', type: 'post', effect: 'read' }], entries);
    expect(read?.verified).toBe(true);
  });

  it('an update is not a create: the reason names the effect that did happen', async () => {
    const [verdict] = await verify(
      [{ target: '101', type: 'suite', effect: 'created' }],
      ledgerOf([{ kind: 'updated', key: '/suites/101', id: '101', type: 'suite' }]),
    );
    expect(why(verdict)).toBe(
      'suite 101 (/suites/101) was updated in this run, not created (claim "updated suite 101")',
    );
  });

  it('created then deleted is not created; a move away names where it went', async () => {
    const deleted = await verify(
      [{ target: '1', type: 'post', effect: 'created' }],
      ledgerOf([{ kind: 'created', ...post1 }], [{ kind: 'deleted', ...post1 }]),
    );
    expect(why(deleted[0])).toMatch(
      /was created \(ledger #1\) and later deleted \(ledger #2\): nothing this run made is left/,
    );
    const moved = await verify(
      [{ target: 'draft.md', effect: 'created' }],
      ledgerOf(
        [{ kind: 'created', space: 'file', key: 'draft.md', id: 'draft.md' }],
        [
          { kind: 'deleted', space: 'file', key: 'draft.md', id: 'draft.md', movedTo: 'final.md' },
          { kind: 'created', space: 'file', key: 'final.md', id: 'final.md', movedFrom: 'draft.md' },
        ],
      ),
    );
    expect(why(moved[0])).toMatch(/later moved to final\.md .*claim final\.md instead/);
  });

  it('a resource this run never touched is dropped: it may be an earlier run’s', async () => {
    const [verdict] = await verify([{ target: '7', type: 'post', effect: 'created' }], ledgerOf([]));
    expect(why(verdict)).toBe('this run has no effect on post 7');
  });

  it('duplicate claims collapse to one item and are reported as duplicates', async () => {
    const verdicts = await verify(
      [
        { target: '1', type: 'post', effect: 'created' },
        { target: '1', type: 'posts', effect: 'created' },
        { target: '/posts/1', effect: 'created' },
      ],
      ledgerOf([{ kind: 'created', ...post1 }]),
    );
    expect(verdicts.map((verdict) => verdict.verified)).toEqual([true, false, false]);
    expect(verdicts.slice(1).every((verdict) => !verdict.verified && verdict.duplicate)).toBe(true);
    expect(why(verdicts[1])).toMatch(/^duplicate: post 1 \(\/posts\/1\) was already claimed \(claim 1\)/);
  });

  it('type and title in the verified item come from the evidence; a contradicting title is dropped', async () => {
    const entries = ledgerOf([{ kind: 'created', ...post1, observed: { title: 'Alfa' } }]);
    const [right] = await verify([{ target: '1', effect: 'created', type: 'posts' }], entries);
    expect(right).toMatchObject({ verified: true, item: { type: 'post', title: 'Alfa', target: '1' } });
    const [wrong] = await verify([{ target: '1', effect: 'created', title: 'Alpha' }], entries);
    expect(why(wrong)).toBe('title mismatch: claimed "Alpha", but post 1 (/posts/1) is titled "Alfa"');
    const [spaced] = await verify([{ target: '1', effect: 'created', title: '  alfa ' }], entries);
    expect(spaced?.verified).toBe(true);
  });

  it('an id shared by two resources, claimed without a type, is ambiguous and says how to name it', async () => {
    const [verdict] = await verify(
      [{ target: '1', effect: 'created' }],
      ledgerOf([{ kind: 'created', ...post1 }], [{ kind: 'created', ...comment1 }]),
    );
    expect(why(verdict)).toBe(
      'ambiguous: 1 names 2 resources ("created post 1", "created comment 1"); name the type',
    );
  });

  it('spellings are canonicalized by the resolver the tools use; content is checked as it stands at finish', async () => {
    const files: Record<string, string> = { 'docs/a.md': '# Title\nbody\n' };
    const resolver: ClaimResolver = {
      space: 'file',
      canonical: (spelling) => spelling.replace(/^\/project\//, '').replace(/^\.\//, ''),
      inspect: async (key) =>
        key in files ? { content: files[key] as string, sha256: 'abcdef0123456789' } : undefined,
    };
    const entries = ledgerOf([
      { kind: 'created', space: 'file', key: 'docs/a.md', id: 'docs/a.md', type: 'file' },
    ]);
    const verdicts = await verify(
      [
        { target: './docs/a.md', effect: 'created', contains: 'body' },
        { target: '/project/docs/a.md', effect: 'created', sha256: 'abcdef01' },
        { target: 'docs/a.md', effect: 'created', contains: 'missing text' },
        { target: 'docs/a.md', effect: 'created', sha256: 'ffff0000' },
        { target: 'docs/b.md', effect: 'created' },
      ],
      entries,
      { resolvers: [resolver] },
    );
    expect(verdicts[0]?.verified).toBe(true);
    expect(why(verdicts[1])).toMatch(/^duplicate/);
    expect(why(verdicts[2])).toBe(
      'file docs/a.md does not contain the claimed text "missing text" at finish',
    );
    expect(why(verdicts[3])).toBe(
      'file docs/a.md has sha256 abcdef012345 at finish, not the claimed ffff0000',
    );
    expect(why(verdicts[4])).toBe('this run has no effect on docs/b.md');
  });

  it('a resolver that refuses a spelling (outside the project) names nothing', async () => {
    const resolver: ClaimResolver = {
      space: 'file',
      canonical: () => {
        throw new Error('outside the project');
      },
    };
    const [verdict] = await verify([{ target: '../etc/passwd', effect: 'created' }], ledgerOf([]), {
      resolvers: [resolver],
    });
    expect(why(verdict)).toBe('this run has no effect on ../etc/passwd');
  });

  it('the default effect applies to claims that name none; `changed` accepts any write', async () => {
    const entries = ledgerOf([{ kind: 'updated', ...post1 }]);
    const [strict] = await verify([{ target: '1', type: 'post' }], entries, { defaultEffect: 'created' });
    expect(strict?.verified).toBe(false);
    const [loose] = await verify([{ target: '1', type: 'post' }], entries);
    expect(loose).toMatchObject({ verified: true, item: { effect: 'updated' } });
  });
});

describe('a dropped claim names the spelling that would have matched', () => {
  it('a path that names no resource of this run points at the one with the same name', async () => {
    const [verdict] = await verifyAgainstEffects()(
      [{ target: 'a.md', effect: 'created' }],
      evidenceView(
        'r',
        ledgerOf([{ kind: 'created', space: 'file', key: 'docs/a.md', id: 'docs/a.md', type: 'file' }]),
        new Set(),
      ),
    );
    expect(why(verdict)).toBe('this run has no effect on a.md; did you mean "created file docs/a.md"?');
  });
});

describe('type words', () => {
  it.each([
    ['suite', 'suites', true],
    ['Suites', 'suite', true],
    ['test case', 'tests', true],
    ['test case', 'test_cases', true],
    ['user story', 'stories', true],
    ['suite', 'test_suites', true],
    ['category', 'categories', true],
    ['test', 'test_suites', false],
    ['milestone', 'tests', false],
    ['comment', 'posts', false],
    ['test run', 'test_suites', false],
    ['', 'tests', false],
  ] as const)('a claimed "%s" names a "%s": %s', (claimed, actual, expected) => {
    expect(sameType(claimed, actual)).toBe(expected);
  });
});

describe('type words, found by mutation testing', () => {
  it.each([
    ['movies', 'movie'],
    ['cookies', 'cookie'],
    ['series', 'series'],
    ['categories', 'category'],
    ['stories', 'story'],
  ])('singular(%s) is %s', (plural, expected) => {
    expect(singular(plural)).toBe(expected);
  });

  it.each([
    ['movie', 'movies', true],
    ['test suite', 'suites', true],
    ['test suite', 'tests', false],
    ['test case', 'tests', true],
    ['test item', 'tests', true],
    ['user story', 'users', false],
  ] as const)('a claimed "%s" names a "%s": %s', (claimed, actual, expected) => {
    expect(sameType(claimed, actual)).toBe(expected);
  });
});
