import { describe, expect, it } from 'vitest';
import {
  type ClaimResolver,
  type ClaimVerdict,
  evidenceView,
  itemFromNet,
  verifyAgainstEffects,
} from '../../../src/core/agent/claims.js';
import type { NetEffect } from '../../../src/core/effects.js';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';
import { ledgerOf, verify, why } from './claim-fixtures.js';

const whys = (verdicts: ClaimVerdict[]) => verdicts.map(why);

const suite = { key: '/suites/1', id: '1', type: 'suite' };
const test1 = { key: '/tests/1', id: '1', type: 'test' };

describe('a verified item is built from the evidence alone', () => {
  it('carries the resource, its type, the server title and the step that made it', async () => {
    const [verdict] = await verify(
      [{ target: '1', type: 'suite', title: 'smoke', effect: 'created' }],
      ledgerOf([{ kind: 'created', ...suite, observed: { title: 'Smoke' } }], [{ kind: 'read', ...suite }]),
    );
    expect(verdict).toEqual({
      claim: { target: '1', type: 'suite', title: 'smoke', effect: 'created' },
      verified: true,
      item: {
        target: '1',
        resource: '/suites/1',
        space: 'http',
        effect: 'created',
        type: 'suite',
        title: 'Smoke',
        via: 'call #1',
        evidenceSeq: 1,
      },
    });
  });

  it('a read claim cites the latest read, not the write', () => {
    const net: NetEffect = {
      space: 'file',
      key: 'a.md',
      change: 'updated',
      read: true,
      preExisting: true,
      observed: { title: 7 },
      history: [
        { kind: 'read', seq: 1, via: 'read #1' },
        { kind: 'updated', seq: 2, via: 'write #2' },
        { kind: 'read', seq: 3, via: 'read #3' },
      ],
    };
    expect(itemFromNet(net, true)).toEqual({
      target: 'a.md',
      resource: 'a.md',
      space: 'file',
      effect: 'read',
      via: 'read #3',
      evidenceSeq: 3,
    });
    expect(itemFromNet(net)).toMatchObject({ effect: 'updated', via: 'write #2', evidenceSeq: 2 });
  });

  it('a create whose response was lost says so, and how it was found', () => {
    const net: NetEffect = {
      space: 'http',
      key: '/suites/9',
      id: '9',
      change: 'created',
      read: false,
      preExisting: false,
      observed: {},
      history: [
        {
          kind: 'created',
          seq: 4,
          via: 'GET /suites → 200',
          reconciledFrom: 'POST /suites → 502 (response lost)',
        },
      ],
    };
    expect(itemFromNet(net)).toEqual({
      target: '9',
      resource: '/suites/9',
      space: 'http',
      effect: 'created',
      via: 'POST /suites → 502 (response lost), found by GET /suites → 200',
      evidenceSeq: 4,
      reconciled: true,
    });
  });

  it('a resource with no step and no change is cited as such', () => {
    const net: NetEffect = {
      space: 'x',
      key: 'k',
      read: false,
      preExisting: false,
      observed: {},
      history: [],
    };
    expect(itemFromNet(net)).toEqual({
      target: 'k',
      resource: 'k',
      space: 'x',
      effect: 'read',
      via: '(no step)',
      evidenceSeq: 0,
    });
  });
});

describe('why a claim is dropped names what did happen', () => {
  it('a read claim on something the run changed', async () => {
    const verdicts = await verify(
      [{ target: '/suites/1', effect: 'read' }],
      ledgerOf([{ kind: 'updated', ...suite }]),
    );
    expect(why(verdicts[0])).toBe(
      'suite 1 (/suites/1) was updated in this run, not read with a reading tool',
    );
  });

  it('a change claim on something only read', async () => {
    const entries = ledgerOf([{ kind: 'read', ...suite }]);
    expect(whys(await verify([{ target: '/suites/1' }], entries))).toEqual([
      'suite 1 (/suites/1) was only read in this run, never changed; a read proves nothing was made',
    ]);
    expect(whys(await verify([{ target: '/suites/1', effect: 'deleted' }], entries))).toEqual([
      'suite 1 (/suites/1) was only read in this run, never deleted; a read proves nothing was made',
    ]);
  });

  it('a create claim on something created and deleted, or moved away', async () => {
    const deleted = ledgerOf(
      [{ kind: 'created', ...suite }],
      [{ kind: 'updated', ...suite }],
      [{ kind: 'deleted', ...suite }],
    );
    expect(whys(await verify([{ target: '/suites/1', effect: 'created' }], deleted))).toEqual([
      'suite 1 (/suites/1) was created (ledger #1) and later deleted (ledger #3): nothing this run made is left there',
    ]);
    const moved = ledgerOf(
      [{ kind: 'created', key: 'a.md' }],
      [{ kind: 'deleted', key: 'a.md', movedTo: 'b.md' }],
      [{ kind: 'created', key: 'b.md' }],
    );
    expect(whys(await verify([{ target: 'a.md', effect: 'created' }], moved))).toEqual([
      'a.md was created (ledger #1) and later moved to b.md (ledger #2): nothing this run made is left there; claim b.md instead',
    ]);
  });

  it('an update claim on something moved away names where it went', async () => {
    const moved = ledgerOf([{ kind: 'deleted', key: 'a.md', movedTo: 'b.md' }]);
    expect(whys(await verify([{ target: 'a.md', effect: 'updated' }], moved))).toEqual([
      'a.md was moved away to b.md in this run, not updated; claim b.md instead',
    ]);
    const deleted = ledgerOf([{ kind: 'deleted', key: 'a.md' }]);
    expect(whys(await verify([{ target: 'a.md', effect: 'updated' }], deleted))).toEqual([
      'a.md was deleted in this run, not updated (claim "deleted a.md")',
    ]);
  });

  it('a create claim on an update names the claim that would match', async () => {
    const verdicts = await verify(
      [{ target: '1', type: 'suite', effect: 'created' }],
      ledgerOf([{ kind: 'updated', ...suite }]),
    );
    expect(why(verdicts[0])).toBe(
      'suite 1 (/suites/1) was updated in this run, not created (claim "updated suite 1")',
    );
  });
});

describe('which resource a claim names', () => {
  it('a resource the run never touched, with the resolver’s spelling', async () => {
    const resolver: ClaimResolver = { space: 'file', canonical: (spelling) => spelling.replace(/^\.\//, '') };
    const verdicts = await verify(
      [{ target: './docs/a.md' }, { target: 'docs/a.md' }, { target: '5', type: 'suite' }],
      ledgerOf([{ kind: 'created', ...suite }]),
      { resolvers: [resolver] },
    );
    expect(whys(verdicts)).toEqual([
      'this run has no effect on ./docs/a.md (docs/a.md)',
      'this run has no effect on docs/a.md',
      'this run has no effect on suite 5',
    ]);
  });

  it('points at up to three resources with the same last name that would have matched', async () => {
    const entries = ledgerOf(
      [{ kind: 'created', key: 'a/x.md' }],
      [{ kind: 'created', key: 'b/x.md' }],
      [{ kind: 'read', key: 'c/x.md' }],
      [{ kind: 'updated', key: 'd/x.md' }],
      [{ kind: 'created', key: 'e/x.md' }],
      [{ kind: 'created', key: 'e/y.md' }],
    );
    expect(whys(await verify([{ target: 'z/x.md' }], entries))).toEqual([
      'this run has no effect on z/x.md; did you mean "updated a/x.md" or "updated b/x.md" or "updated d/x.md"?'.replace(
        /updated a\/x.md" or "updated b\/x.md/,
        'created a/x.md" or "created b/x.md',
      ),
    ]);
    expect(whys(await verify([{ target: 'z/x.md', effect: 'read' }], entries))).toEqual([
      'this run has no effect on z/x.md; did you mean "read c/x.md"?',
    ]);
    expect(whys(await verify([{ target: 'x.md', effect: 'deleted' }], entries))).toEqual([
      'this run has no effect on x.md',
    ]);
  });

  it('an id of another type is a substitution that names the matching claim; a read-only one has no source', async () => {
    const created = await verify(
      [{ target: '1', type: 'milestone', effect: 'created' }],
      ledgerOf([{ kind: 'read', ...suite }], [{ kind: 'created', ...test1 }]),
    );
    expect(why(created[0])).toBe(
      'substitution: a milestone was claimed, but 1 is test 1 (/tests/1), from call #2; claim "created test 1" if that is what you meant',
    );
    const read = await verify(
      [{ target: '1', type: 'milestone', effect: 'read' }],
      ledgerOf([{ kind: 'read', ...suite }]),
    );
    expect(why(read[0])).toBe(
      'substitution: a milestone was claimed, but 1 is suite 1 (/suites/1); claim "read suite 1" if that is what you meant',
    );
    const neither = await verify(
      [{ target: '1', type: 'milestone', effect: 'deleted' }],
      ledgerOf([{ kind: 'read', ...suite }], [{ kind: 'created', ...test1 }]),
    );
    expect(why(neither[0])).toContain('but 1 is suite 1 (/suites/1);');
  });

  it('a type resolves the id to its own collection, and a resource without a type is not excluded', async () => {
    const entries = ledgerOf(
      [{ kind: 'created', ...suite }],
      [{ kind: 'created', ...test1 }],
      [{ kind: 'created', key: '/misc/2', id: '2' }],
    );
    const verdicts = await verify(
      [
        { target: '1', type: 'test case' },
        { target: '2', type: 'anything' },
      ],
      entries,
    );
    expect(verdicts.map((verdict) => verdict.verified && verdict.item.resource)).toEqual([
      '/tests/1',
      '/misc/2',
    ]);
  });

  it('an id shared by two resources is ambiguous without a type', async () => {
    const verdicts = await verify(
      [{ target: '1' }],
      ledgerOf(
        [{ kind: 'created', ...suite }],
        [{ kind: 'read', ...test1 }],
        [{ kind: 'updated', ...test1, key: '/t2/1' }],
      ),
    );
    expect(why(verdicts[0])).toBe(
      'ambiguous: 1 names 2 resources ("created suite 1", "updated test 1"); name the type',
    );
    const reads = await verify(
      [{ target: '1', effect: 'created' }],
      ledgerOf([{ kind: 'read', ...suite }], [{ kind: 'read', ...test1 }]),
    );
    expect(why(reads[0])).toBe(
      'ambiguous: 1 names 2 resources ("read suite 1", "read test 1"); name the type',
    );
  });

  it('an exact key wins over an id, and its type must still agree', async () => {
    const entries = ledgerOf(
      [{ kind: 'created', ...suite }],
      [{ kind: 'created', key: '1', id: 'x', type: 'note' }],
    );
    const verdicts = await verify([{ target: '1' }, { target: '/suites/1', type: 'test' }], entries);
    expect(verdicts[0]?.verified && verdicts[0].item.resource).toBe('1');
    expect(why(verdicts[1])).toBe('substitution: a test was claimed, but 1 is a suite (call #1)');
    const read = await verify(
      [{ target: '/suites/1', type: 'test', effect: 'read' }],
      ledgerOf([{ kind: 'read', ...suite }]),
    );
    expect(why(read[0])).toBe('substitution: a test was claimed, but 1 is a suite (/suites/1)');
    const noId = await verify(
      [{ target: 'k', type: 'test' }],
      ledgerOf([{ kind: 'created', key: 'k', type: 'suite' }]),
    );
    expect(why(noId[0])).toBe('substitution: a test was claimed, but k is a suite (call #1)');
  });

  it('the first resolver that knows a resource wins; a refusing resolver names nothing', async () => {
    const entries = ledgerOf(
      [{ kind: 'created', space: 'file', key: 'docs/a.md' }],
      [{ kind: 'created', space: 'record', key: 'a.md' }],
    );
    const refuses: ClaimResolver = {
      space: 'file',
      canonical: () => {
        throw new Error('outside the project');
      },
    };
    const none: ClaimResolver = { space: 'file', canonical: () => undefined };
    const records: ClaimResolver = {
      space: 'record',
      canonical: (spelling) => spelling.replace(/^refs\//, ''),
    };
    const files: ClaimResolver = {
      space: 'file',
      canonical: (spelling) => `docs/${spelling.replace(/^refs\//, '')}`,
    };
    const verdicts = await verify([{ target: ' refs/a.md ' }], entries, {
      resolvers: [refuses, none, records, files],
    });
    expect(verdicts[0]?.verified && verdicts[0].item.resource).toBe('a.md');
    const unknown = await verify([{ target: 'refs/b.md' }], entries, { resolvers: [none, files, records] });
    expect(why(unknown[0])).toBe('this run has no effect on refs/b.md (docs/b.md)');
  });

  it('a resolver that throws something other than an Error is not swallowed', async () => {
    const odd: ClaimResolver = {
      space: 'file',
      canonical: () => {
        throw 'odd';
      },
    };
    await expect(verify([{ target: 'a' }], ledgerOf([]), { resolvers: [odd] })).rejects.toBe('odd');
  });
});

describe('title and content are checked against the evidence', () => {
  const titled = ledgerOf([
    {
      kind: 'created',
      ...suite,
      observed: { title: 'Smoke  Tests', sha256: 'abcdef0123456789', content: 'hello world' },
    },
  ]);

  it('a title that differs only in case and spacing is the same title', async () => {
    const verdicts = await verify(
      [
        { target: '1', title: '  smoke tests ' },
        { target: '1', title: 'Smoke' },
      ],
      titled,
    );
    expect(verdicts[0]?.verified).toBe(true);
    expect(why(verdicts[1])).toBe(
      'title mismatch: claimed "Smoke", but suite 1 (/suites/1) is titled "Smoke  Tests"',
    );
  });

  it('a title cannot contradict a resource with no observed title', async () => {
    const verdicts = await verify(
      [{ target: '1', title: 'Anything' }],
      ledgerOf([{ kind: 'created', ...suite, observed: { title: 3 } }]),
    );
    expect(verdicts[0]?.verified).toBe(true);
  });

  it('a sha256 claim: a prefix of 8+ hex digits of the observed hash, any case, with or without a label', async () => {
    const verdicts = await verify(
      [
        { target: '1', sha256: 'abcdef01' },
        { target: '1', sha256: 'SHA256:abcdef0123', effect: 'read' },
        { target: '1', sha256: 'sha256=abcdef01', effect: 'created' },
      ],
      titled,
    );
    // The third passes the hash check and is then counted once, as a duplicate of the first.
    expect(whys(verdicts).map((text) => text.split(':')[0])).toEqual([
      'verified',
      'suite 1 (/suites/1) was created in this run, not read with a reading tool',
      'duplicate',
    ]);
    const bad = await verify(
      [
        { target: '1', sha256: 'abcdef0' },
        { target: '1', sha256: 'ffffffff00000000ffff' },
      ],
      titled,
    );
    expect(whys(bad)).toEqual([
      'suite 1 (/suites/1) has sha256 abcdef012345 at finish, not the claimed abcdef0',
      'suite 1 (/suites/1) has sha256 abcdef012345 at finish, not the claimed ffffffff0000',
    ]);
  });

  it('a hash claim without an observed hash cannot be checked', async () => {
    const verdicts = await verify(
      [{ target: '1', sha256: 'abcdef01' }],
      ledgerOf([{ kind: 'created', ...suite, observed: { sha256: 5 } }]),
    );
    expect(why(verdicts[0])).toBe(
      'the content of suite 1 (/suites/1) cannot be checked: no hash was observed',
    );
  });

  it('contains: the text must be in the content as it stands at finish', async () => {
    const long = 'x'.repeat(100);
    const verdicts = await verify(
      [
        { target: '1', contains: 'world' },
        { target: '1', contains: long },
      ],
      titled,
    );
    expect(verdicts[0]?.verified).toBe(true);
    expect(why(verdicts[1])).toBe(
      `suite 1 (/suites/1) does not contain the claimed text "${'x'.repeat(80)}" at finish`,
    );
    const unknown = await verify(
      [{ target: '1', contains: 'a' }],
      ledgerOf([{ kind: 'created', ...suite, observed: { content: 1 } }]),
    );
    expect(why(unknown[0])).toBe('the content of suite 1 (/suites/1) cannot be checked here');
  });

  it('the resource as it stands now (inspect) wins over what was observed when it was written', async () => {
    const entries = ledgerOf([
      {
        kind: 'created',
        space: 'file',
        key: 'a.md',
        observed: { sha256: 'aaaaaaaa11', content: 'old text' },
      },
    ]);
    const inspected: string[] = [];
    const other: ClaimResolver = {
      space: 'record',
      canonical: () => undefined,
      inspect: async () => ({ sha256: 'cccccccc', content: 'other' }),
    };
    const noInspect: ClaimResolver = { space: 'file', canonical: () => undefined };
    const files: ClaimResolver = {
      space: 'file',
      canonical: (spelling) => spelling,
      inspect: async (key) => {
        inspected.push(key);
        return { sha256: 'bbbbbbbb22', content: 'new text' };
      },
    };
    const verdicts = await verify(
      [
        { target: 'a.md', contains: 'new' },
        { target: 'a.md', contains: 'old' },
        { target: 'a.md', sha256: 'bbbbbbbb' },
        { target: 'a.md', sha256: 'aaaaaaaa' },
      ],
      entries,
      { resolvers: [other, noInspect, files] },
    );
    expect(whys(verdicts)).toEqual([
      'verified',
      'a.md does not contain the claimed text "old" at finish',
      'duplicate: a.md was already claimed (claim 1); counted once',
      'a.md has sha256 bbbbbbbb22 at finish, not the claimed aaaaaaaa',
    ]);
    expect(inspected).toEqual(['a.md', 'a.md', 'a.md', 'a.md']);
  });

  it('a resource gone at finish falls back to what was observed', async () => {
    const entries = ledgerOf([
      { kind: 'created', space: 'file', key: 'a.md', observed: { content: 'kept' } },
    ]);
    const gone: ClaimResolver = {
      space: 'file',
      canonical: (spelling) => spelling,
      inspect: async () => undefined,
    };
    const verdicts = await verify([{ target: 'a.md', contains: 'kept' }], entries, { resolvers: [gone] });
    expect(verdicts[0]?.verified).toBe(true);
  });
});

describe('duplicates and defaults', () => {
  it('a read claim and a change claim of the same resource are two items; a repeat of either is a duplicate', async () => {
    const entries = ledgerOf([{ kind: 'read', ...suite }], [{ kind: 'updated', ...suite }]);
    const verdicts = await verify(
      [
        { target: '/suites/1', effect: 'read' },
        { target: '/suites/1', effect: 'updated' },
        { target: '1', type: 'suite', effect: 'changed' },
        { target: '/suites/1', effect: 'read' },
      ],
      entries,
    );
    expect(verdicts.map((verdict) => verdict.verified)).toEqual([true, true, false, false]);
    expect(verdicts.map((verdict) => !verdict.verified && verdict.duplicate)).toEqual([
      false,
      false,
      true,
      true,
    ]);
    expect(why(verdicts[2])).toBe(
      'duplicate: suite 1 (/suites/1) was already claimed (claim 2); counted once',
    );
    expect(why(verdicts[3])).toBe(
      'duplicate: suite 1 (/suites/1) was already claimed (claim 1); counted once',
    );
  });

  it('a dropped claim is not counted as a duplicate target', async () => {
    const verdicts = await verify(
      [{ target: '1', title: 'wrong' }, { target: '1' }],
      ledgerOf([{ kind: 'created', ...suite, observed: { title: 'Right' } }]),
    );
    expect(verdicts.map((verdict) => verdict.verified)).toEqual([false, true]);
  });

  it('without options a claim means any change; with a default effect, that effect', async () => {
    const entries = ledgerOf([{ kind: 'updated', ...suite }]);
    expect(
      (await verifyAgainstEffects()([{ target: '1' }], evidenceView('r', entries, new Set())))[0]?.verified,
    ).toBe(true);
    expect((await verify([{ target: '1' }], entries, { defaultEffect: 'created' }))[0]?.verified).toBe(false);
    expect((await verify([{ target: '1' }], ledgerOf([{ kind: 'read', ...suite }])))[0]?.verified).toBe(
      false,
    );
  });
});

describe('the evidence view is this run’s successful calls', () => {
  it('keeps successful tool calls in order, marks read-only tools, and folds the net effects', () => {
    const entries: LedgerEntry[] = [
      ...ledgerOf([{ kind: 'created', ...suite }]),
      {
        runId: 'r',
        seq: 2,
        ts: '',
        kind: 'tool_call',
        name: 'lookup',
        outcome: 'ok',
        data: { tool: 'lookup', target: 7, input: { q: 1 }, result: 'r' },
      } as unknown as LedgerEntry,
      {
        runId: 'r',
        seq: 3,
        ts: '',
        kind: 'tool_call',
        name: 'tool',
        outcome: 'error',
        data: { tool: 'tool' },
      },
      { runId: 'r', seq: 4, ts: '', kind: 'claim', outcome: 'ok', data: { tool: 'tool' } },
    ];
    const view = evidenceView('run-1', entries, new Set(['lookup']));
    expect(view.runId).toBe('run-1');
    expect(view.calls).toEqual([
      {
        seq: 1,
        tool: 'tool',
        target: 't',
        input: {},
        result: undefined,
        evidence: ((entries[0] as LedgerEntry).data as { evidence: unknown }).evidence,
        readOnly: false,
      },
      { seq: 2, tool: 'lookup', target: '7', input: { q: 1 }, result: 'r', evidence: {}, readOnly: true },
    ]);
    expect([...view.net.keys()]).toEqual(['http:/suites/1']);
  });
});

describe('a create changed afterwards under another spelling of its path is not backed', () => {
  const made = { kind: 'created' as const, key: '/api/a/suites/101', id: '101', type: 'suite' };

  it.each([
    ['/api/projects/a/suites/101', '101', 'updated'],
    ['/api/a/suites/0101', '0101', 'updated'],
    ['/api/projects/a/suites/101', '101', 'deleted'],
  ] as const)('%s (%s)', async (key, id, kind) => {
    const verdicts = await verify(
      [{ target: '101', type: 'suite', effect: 'created' }],
      ledgerOf([{ ...made, observed: { title: 'Checkout' } }], [{ kind, key, id, type: 'suite' }]),
    );
    expect(why(verdicts[0])).toContain('the same suite 101 under another path');
  });

  it('but not a change on its own path, another type or another id', async () => {
    const verdicts = await verify(
      [{ target: '101', type: 'suite', effect: 'created' }],
      ledgerOf(
        [made],
        [{ kind: 'updated', key: '/api/a/suites/101/move', id: '101', type: 'move' }],
        [{ kind: 'updated', key: '/api/a/tests/101', id: '101', type: 'test' }],
        [{ kind: 'deleted', key: '/api/a/suites/1010', id: '1010', type: 'suite' }],
      ),
    );
    expect(why(verdicts[0])).toBe('verified');
  });

  it('nor one changed before it was made', async () => {
    const verdicts = await verify(
      [{ target: '101', type: 'suite', effect: 'created' }],
      ledgerOf([{ kind: 'updated', key: '/api/projects/a/suites/101', id: '101', type: 'suite' }], [made]),
    );
    expect(why(verdicts[0])).toBe('verified');
  });
});
