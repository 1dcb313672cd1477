import { describe, expect, it } from 'vitest';
import {
  changesReport,
  contentChanges,
  fileHistories,
  layoutSignature,
  type PathHistory,
} from '../../../src/agents/coder/changes-report.js';
import { type Effect, netEffects } from '../../../src/core/effects.js';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);

/** One tool call (ok unless said otherwise) with these effects in the `file` space. */
function call(
  effects: Partial<Effect>[],
  options: { via?: string; tool?: string; target?: string; outcome?: string; kind?: string } = {},
): LedgerEntry {
  return {
    runId: 'r',
    seq: 1,
    ts: '',
    kind: (options.kind ?? 'tool_call') as LedgerEntry['kind'],
    name: options.tool ?? 'fs_write',
    outcome: (options.outcome ?? 'ok') as LedgerEntry['outcome'],
    data: {
      tool: options.tool ?? 'fs_write',
      ...(options.target !== undefined ? { target: options.target } : {}),
      evidence: {
        ...('via' in options ? { via: options.via } : { via: '#1' }),
        effects: effects.map((effect) => ({ space: 'file', kind: 'updated', ...effect })),
      },
    },
    // Readers are checked against shapes the store would mark malformed, too.
  } as unknown as LedgerEntry;
}

const file = (sha256?: string, bytes?: number) => ({
  ...(bytes !== undefined ? { bytes } : {}),
  ...(sha256 !== undefined ? { sha256 } : {}),
});
const history = (entries: LedgerEntry[], path = 'a.ts') => fileHistories(entries).get(path);

describe('fileHistories: each path before the turn and after it', () => {
  it('counts only successful tool calls with effects on files', () => {
    const effect = { key: 'a.ts', kind: 'created' as const, observed: { before: null, ...file(A, 3) } };
    const entries: LedgerEntry[] = [
      call([effect], { outcome: 'error' }),
      call([effect], { kind: 'claim' }),
      call([{ ...effect, space: 'http' }]),
      call([{ ...effect, key: 7 as unknown as string }]),
      call([{ ...effect, kind: 'moved' as unknown as Effect['kind'] }]),
      { ...call([]), data: { tool: 'fs_write', evidence: { effects: 'none' } } } as unknown as LedgerEntry,
      { ...call([]), data: { tool: 'fs_write' } },
      { ...call([]), data: { tool: 'fs_write', evidence: { effects: [null] } } },
    ];
    expect([...fileHistories(entries).keys()]).toStrictEqual([]);
  });

  it('the state before comes from `before`, else from the kind; after, from the effect', () => {
    expect(history([call([{ key: 'a.ts', kind: 'created', observed: file(A, 3) }])])).toStrictEqual({
      path: 'a.ts',
      first: { exists: false },
      last: { exists: true, bytes: 3, sha256: A },
      read: false,
      written: true,
      via: '#1',
    });
    expect(
      history([call([{ key: 'a.ts', observed: { before: { bytes: '3', sha256: 5 }, ...file(B) } }])]),
    ).toMatchObject({ first: { exists: true }, last: { exists: true, sha256: B } });
    expect(
      history([
        call([{ key: 'a.ts', observed: { before: { bytes: '3', sha256: 5 }, bytes: '4', sha256: 6 } }]),
      ]),
    ).toMatchObject({ first: { exists: true }, last: { exists: true } });
    // Sizes and hashes of another type are not facts: the row leaves them out.
    expect(
      changesReport([
        call([{ key: 'a.ts', kind: 'created', observed: { before: null, bytes: '4', sha256: 6 } }]),
      ]),
    ).toStrictEqual([{ path: 'a.ts', change: 'created', via: '#1' }]);
    expect(history([call([{ key: 'a.ts', observed: { before: { bytes: 2, sha256: A } } }])])).toMatchObject({
      first: { exists: true, bytes: 2, sha256: A },
      last: { exists: true },
    });
    // A `before` that is no state (an old or odd ledger) falls back on the kind.
    expect(
      history([call([{ key: 'a.ts', kind: 'created', observed: { before: 'x' } }])])?.first,
    ).toStrictEqual({
      exists: false,
    });
    expect(history([call([{ key: 'a.ts', observed: { before: undefined } }])])?.first).toStrictEqual({
      exists: true,
    });
    expect(history([call([{ key: 'a.ts' }])])?.first).toStrictEqual({ exists: true });
    expect(
      history([call([{ key: 'a.ts', kind: 'deleted', observed: { before: file(A) } }])])?.last,
    ).toStrictEqual({
      exists: false,
    });
  });

  it('the call that changed it: its evidence line, else its tool and target', () => {
    expect(history([call([{ key: 'a.ts' }], { via: undefined, tool: 'fs_edit', target: 'a.ts' })])?.via).toBe(
      'fs_edit a.ts',
    );
    expect(history([call([{ key: 'a.ts' }], { via: undefined, tool: 'fs_edit' })])?.via).toBe('fs_edit ');
  });

  it('a read sets the state before until the first write, and fills in content a write could not know', () => {
    const read = (sha256: string) => call([{ key: 'a.ts', kind: 'read', observed: file(sha256, 1) }]);
    expect(history([read(A)])).toStrictEqual({
      path: 'a.ts',
      first: { exists: true, bytes: 1, sha256: A },
      last: { exists: true, bytes: 1, sha256: A },
      read: true,
      written: false,
      via: '',
    });
    expect(history([call([{ key: 'a.ts', kind: 'read' }])])?.first).toStrictEqual({ exists: true });
    // read, write B, read C: the state before stays A, and the known B is not replaced.
    expect(history([read(A), call([{ key: 'a.ts', observed: file(B) }]), read(C)])).toMatchObject({
      first: { sha256: A },
      last: { sha256: B },
      read: true,
      written: true,
    });
    // A write whose content is unknown (a moved directory's file), then read: the read tells.
    expect(history([call([{ key: 'a.ts', observed: { before: file(A) } }]), read(C)])?.last).toStrictEqual({
      exists: true,
      bytes: 1,
      sha256: C,
    });
    // Deleted, then a read (of what something else put there): the turn's own last state stays.
    expect(
      history([call([{ key: 'a.ts', kind: 'deleted', observed: { before: file(A) } }]), read(C)])?.last,
    ).toStrictEqual({
      exists: false,
    });
  });

  it('a move is remembered until a later write of the path that is no move', () => {
    const moved = call([{ key: 'b.ts', kind: 'created', movedFrom: 'a.ts', observed: { before: null } }]);
    expect(history([moved], 'b.ts')?.movedFrom).toBe('a.ts');
    const edited = history([moved, call([{ key: 'b.ts', observed: file(B) }])], 'b.ts');
    expect(edited && 'movedFrom' in edited).toBe(false);
  });
});

const path = (
  name: string,
  first: PathHistory['first'],
  last: PathHistory['last'],
  extra: Partial<PathHistory> = {},
): [string, PathHistory] => [
  name,
  { path: name, first, last, read: false, written: true, via: `#${name}`, ...extra },
];
const absent = { exists: false } as const;
const content = (sha256?: string, bytes?: number) => ({ exists: true as const, ...file(sha256, bytes) });
const report = (...paths: [string, PathHistory][]) => contentChanges(new Map(paths));

describe('contentChanges: before against after, by content', () => {
  it('created, updated, deleted; the hash shortened to 12 and the size kept; only-read and reverted paths are no change', () => {
    expect(
      report(
        path('new.ts', absent, content(A, 10)),
        path('edit.ts', content(A, 1), content(B)),
        path('gone.ts', content(C), absent),
        path('read.ts', content(A), content(A), { written: false, read: true }),
        path('large.ts', content(), content(), { written: false, read: true }),
        path('same.ts', content(A), content(A)),
        path('tmp.ts', absent, absent),
        path('unknown.ts', content(), content()),
      ),
    ).toStrictEqual([
      { path: 'edit.ts', change: 'updated', sha256: B.slice(0, 12), via: '#edit.ts' },
      { path: 'gone.ts', change: 'deleted', via: '#gone.ts' },
      { path: 'new.ts', change: 'created', bytes: 10, sha256: A.slice(0, 12), via: '#new.ts' },
      { path: 'unknown.ts', change: 'updated', via: '#unknown.ts' },
    ]);
  });

  it('content that left one path and arrived at another is one move, replacing what was there', () => {
    expect(report(path('a.ts', content(A), absent), path('b.ts', absent, content(A, 4)))).toStrictEqual([
      { path: 'b.ts', change: 'moved', from: 'a.ts', bytes: 4, sha256: A.slice(0, 12), via: '#b.ts' },
    ]);
    expect(report(path('a.ts', content(A), absent), path('b.ts', content(B), content(A)))).toStrictEqual([
      { path: 'b.ts', change: 'moved', from: 'a.ts', sha256: A.slice(0, 12), replaced: true, via: '#b.ts' },
    ]);
  });

  it('a move by the tool is a move when content is unknown, but not when the content differs', () => {
    expect(
      report(path('a', content(), absent), path('b', absent, content(), { movedFrom: 'a' })),
    ).toStrictEqual([{ path: 'b', change: 'moved', from: 'a', via: '#b' }]);
    expect(
      report(path('a', content(), absent), path('b', absent, content(B), { movedFrom: 'a' })),
    ).toStrictEqual([{ path: 'b', change: 'moved', from: 'a', sha256: B.slice(0, 12), via: '#b' }]);
    expect(
      report(path('a', content(A), absent), path('b', absent, content(), { movedFrom: 'a' })),
    ).toStrictEqual([{ path: 'b', change: 'moved', from: 'a', via: '#b' }]);
    expect(
      report(path('a', content(A), absent), path('b', absent, content(B), { movedFrom: 'a' })),
    ).toStrictEqual([
      { path: 'a', change: 'deleted', via: '#a' },
      { path: 'b', change: 'created', sha256: B.slice(0, 12), via: '#b' },
    ]);
    // Without the tool's word, unknown content is no evidence of a move.
    expect(report(path('a', content(), absent), path('b', absent, content()))).toStrictEqual([
      { path: 'a', change: 'deleted', via: '#a' },
      { path: 'b', change: 'created', via: '#b' },
    ]);
  });

  it('among sources with the same content, the one the tool moved from; each source moves once', () => {
    expect(
      report(
        path('x', content(A), absent),
        path('y', content(A), absent),
        path('z', absent, content(A), { movedFrom: 'y' }),
        path('w', absent, content(A)),
        path('v', absent, content(A)),
      ),
    ).toStrictEqual([
      { path: 'v', change: 'created', sha256: A.slice(0, 12), via: '#v' },
      { path: 'w', change: 'moved', from: 'x', sha256: A.slice(0, 12), via: '#w' },
      { path: 'z', change: 'moved', from: 'y', sha256: A.slice(0, 12), via: '#z' },
    ]);
  });

  it('rows are in code-point order, whatever the locale', () => {
    expect(
      report(path('b', absent, content()), path('a', absent, content()), path('B', absent, content())).map(
        (row) => row.path,
      ),
    ).toStrictEqual(['B', 'a', 'b']);
  });

  it('changesReport reads the ledger entries', () => {
    expect(
      changesReport([call([{ key: 'a.ts', kind: 'created', observed: { before: null, ...file(A) } }])]),
    ).toStrictEqual([{ path: 'a.ts', change: 'created', sha256: A.slice(0, 12), via: '#1' }]);
  });
});

describe('layoutSignature', () => {
  it('names the files that appeared or vanished, sorted; edits and other spaces do not count', () => {
    const entries: LedgerEntry[] = [
      call([{ key: 'z.ts', kind: 'created' }]),
      call([{ key: 'b.ts', kind: 'created' }]),
      call([{ key: 'a.ts', kind: 'deleted' }]),
      call([{ key: 'm.ts', kind: 'updated' }]),
      call([{ key: 'r.ts', kind: 'read' }]),
      call([{ key: '/api/x/1', kind: 'created', space: 'http' }]),
    ];
    expect(layoutSignature(netEffects(entries))).toBe('created:b.ts\ncreated:z.ts\ndeleted:a.ts');
    expect(layoutSignature(netEffects([]))).toBe('');
  });
});
