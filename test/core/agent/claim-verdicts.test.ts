import { describe, expect, it } from 'vitest';
import type { ClaimResolver } from '../../../src/core/agent/claims.js';
import { ledgerOf, verify, why } from './claim-fixtures.js';

const test5 = { key: '/api/tests/5', id: '5', type: 'test' };

describe('a read claim is answered with the read', () => {
  it('cites the read even when a write came after it', async () => {
    const [verdict] = await verify(
      [{ target: '5', type: 'test', effect: 'read' }],
      ledgerOf([{ kind: 'read', ...test5 }], [{ kind: 'updated', ...test5 }]),
    );
    expect(verdict).toMatchObject({
      verified: true,
      item: { effect: 'read', via: 'call #1', evidenceSeq: 1 },
    });
  });

  it('a read of something this run created is reported as a read', async () => {
    const [verdict] = await verify(
      [{ target: '5', type: 'test', effect: 'read' }],
      ledgerOf([{ kind: 'created', ...test5 }], [{ kind: 'read', ...test5 }]),
    );
    expect(verdict).toMatchObject({
      verified: true,
      item: { effect: 'read', via: 'call #2', evidenceSeq: 2 },
    });
  });
});

describe('titles', () => {
  it('spacing is not ignored inside a title, only collapsed', async () => {
    const entries = ledgerOf([{ kind: 'created', ...test5, observed: { title: 'Smokesuite' } }]);
    const [joined] = await verify([{ target: '5', effect: 'created', title: 'Smoke suite' }], entries);
    expect(why(joined)).toMatch(/^title mismatch/);
    const [spaced] = await verify([{ target: '5', effect: 'created', title: '  smokesuite ' }], entries);
    expect(spaced?.verified).toBe(true);
  });

  it('a look-alike title (dotless ı) is not the same title', async () => {
    const entries = ledgerOf([{ kind: 'created', ...test5, observed: { title: 'Fıx login' } }]);
    const [verdict] = await verify([{ target: '5', effect: 'created', title: 'Fix login' }], entries);
    expect(why(verdict)).toMatch(/^title mismatch/);
  });

  it('the run’s marker ending the observed title (titleMarker) may be left out, nothing else', async () => {
    const marked = { title: 'Smoke · 3fa9c1', titleMarker: '3fa9c1' };
    const entries = ledgerOf([{ kind: 'created', ...test5, observed: marked }]);
    const verdicts = await verify(
      [
        { target: '5', effect: 'created', title: 'smoke' },
        { target: '5', effect: 'created', title: 'Smoke · 3fa9c1' },
        { target: '5', effect: 'created', title: 'Smok' },
        { target: '5', effect: 'created', title: 'Smoke 3fa9' },
      ],
      entries,
    );
    expect(verdicts.map((verdict) => verdict.verified || why(verdict).split(':')[0])).toEqual([
      true,
      'duplicate',
      'title mismatch',
      'title mismatch',
    ]);
    // Without the marker recorded, the title is compared whole; a later title without it is too.
    const plain = ledgerOf([{ kind: 'created', ...test5, observed: { title: 'Smoke · 3fa9c1' } }]);
    expect(why((await verify([{ target: '5', effect: 'created', title: 'Smoke' }], plain))[0])).toMatch(
      /^title mismatch/,
    );
    const renamed = ledgerOf(
      [{ kind: 'created', ...test5, observed: marked }],
      [{ kind: 'updated', ...test5, observed: { title: 'Other' } }],
    );
    expect(why((await verify([{ target: '5', effect: 'created', title: 'Smoke' }], renamed))[0])).toMatch(
      /^title mismatch/,
    );
  });
});

describe('why a changed resource does not support the claimed change', () => {
  it('a resource this run created is not deleted', async () => {
    const [verdict] = await verify(
      [{ target: '5', type: 'test', effect: 'deleted' }],
      ledgerOf([{ kind: 'created', ...test5 }]),
    );
    expect(why(verdict)).toBe(
      'test 5 (/api/tests/5) was created in this run, not deleted (claim "created test 5")',
    );
  });

  it('a resource that existed, was "created" again and deleted, was deleted — not created then deleted', async () => {
    const [verdict] = await verify(
      [{ target: '5', type: 'test', effect: 'updated' }],
      ledgerOf(
        [{ kind: 'read', ...test5 }],
        [{ kind: 'created', ...test5 }],
        [{ kind: 'deleted', ...test5 }],
      ),
    );
    expect(why(verdict)).toBe(
      'test 5 (/api/tests/5) was deleted in this run, not updated (claim "deleted test 5")',
    );
  });

  it('the last removal decides: moved away, recreated and deleted is deleted, not moved', async () => {
    const file = { space: 'file', key: 'a.md' };
    const entries = ledgerOf(
      [{ kind: 'read', ...file }],
      [{ kind: 'deleted', ...file, movedTo: 'b.md' }],
      [{ kind: 'created', ...file }],
      [{ kind: 'deleted', ...file }],
    );
    const [verdict] = await verify([{ target: 'a.md', effect: 'created' }], entries);
    expect(why(verdict)).toBe('a.md was deleted in this run, not created (claim "deleted a.md")');
  });

  it('created, moved away, created again and deleted: cites the last removal', async () => {
    const file = { space: 'file', key: 'a.md' };
    const entries = ledgerOf(
      [{ kind: 'created', ...file }],
      [{ kind: 'deleted', ...file, movedTo: 'b.md' }],
      [{ kind: 'created', ...file }],
      [{ kind: 'deleted', ...file }],
    );
    const [verdict] = await verify([{ target: 'a.md', effect: 'created' }], entries);
    expect(why(verdict)).toBe(
      'a.md was created (ledger #1) and later deleted (ledger #4): nothing this run made is left there',
    );
  });

  it('created again after a move, the resource is created, not moved away', async () => {
    const file = { space: 'file', key: 'a.md' };
    const entries = ledgerOf(
      [{ kind: 'created', ...file }],
      [{ kind: 'deleted', ...file, movedTo: 'b.md' }],
      [{ kind: 'created', ...file }],
    );
    const [verdict] = await verify([{ target: 'a.md', effect: 'deleted' }], entries);
    expect(why(verdict)).toBe('a.md was created in this run, not deleted (claim "created a.md")');
  });

  it('a read after a move does not hide the move', async () => {
    const file = { space: 'file', key: 'a.md' };
    const entries = ledgerOf(
      [{ kind: 'created', ...file }],
      [{ kind: 'deleted', ...file, movedTo: 'b.md' }],
      [{ kind: 'read', ...file }],
    );
    const [verdict] = await verify([{ target: 'a.md', effect: 'created' }], entries);
    expect(why(verdict)).toBe(
      'a.md was created (ledger #1) and later moved to b.md (ledger #2): nothing this run made is left there; claim b.md instead',
    );
  });
});

describe('the spellings that would have matched', () => {
  const entries = ledgerOf([{ kind: 'created', ...test5 }], [{ kind: 'read', ...test5 }]);

  it('compares the last path segment, ignoring a trailing slash and surrounding spaces', async () => {
    for (const target of ['tests/5/', ' other/5 ', 'x/y/5']) {
      const [verdict] = await verify([{ target, effect: 'created' }], entries);
      expect(why(verdict), target).toBe(
        `this run has no effect on ${target}; did you mean "created test 5"?`,
      );
    }
  });

  it('a read claim is offered the read spelling', async () => {
    const [verdict] = await verify([{ target: 'x/y/5', effect: 'read' }], entries);
    expect(why(verdict)).toBe('this run has no effect on x/y/5; did you mean "read test 5"?');
  });

  it('an empty claim suggests nothing', async () => {
    const [verdict] = await verify([{ target: '', effect: 'created' }], entries);
    expect(why(verdict)).toBe('this run has no effect on ');
  });
});

describe('canonical spellings and content checks', () => {
  const files: ClaimResolver = { space: 'file', canonical: (spelling) => spelling.replace(/^\.\//, '') };

  it('a typed claim of a resource the run never touched names the canonical spelling', async () => {
    const [verdict] = await verify([{ target: './a.ts', type: 'file', effect: 'created' }], ledgerOf([]), {
      resolvers: [files],
    });
    expect(why(verdict)).toBe('this run has no effect on file ./a.ts (a.ts)');
  });

  it('the resource is not inspected when the claim states no content', async () => {
    const inspected: string[] = [];
    const inspecting: ClaimResolver = {
      ...files,
      inspect: async (key) => {
        inspected.push(key);
        return { content: 'x' };
      },
    };
    const [verdict] = await verify(
      [{ target: 'a.md', effect: 'created' }],
      ledgerOf([{ kind: 'created', space: 'file', key: 'a.md' }]),
      { resolvers: [inspecting] },
    );
    expect(verdict?.verified).toBe(true);
    expect(inspected).toEqual([]);
  });

  it('only a leading sha256: label is stripped from a claimed hash', async () => {
    const sha = 'abcdef0123456789'.repeat(4);
    const entries = ledgerOf([{ kind: 'created', space: 'file', key: 'a.md', observed: { sha256: sha } }]);
    const [labelled] = await verify(
      [{ target: 'a.md', effect: 'created', sha256: `SHA256:${sha}` }],
      entries,
    );
    expect(labelled?.verified).toBe(true);
    const [inside] = await verify(
      [{ target: 'a.md', effect: 'created', sha256: `abcdsha256:ef012345` }],
      entries,
    );
    expect(why(inside)).toBe('a.md has sha256 abcdef012345 at finish, not the claimed abcdsha256:e');
  });
});
