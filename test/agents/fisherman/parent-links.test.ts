import { describe, expect, it } from 'vitest';
import { requestProblems } from '../../../src/agents/fisherman/request-met.js';
import { netEffects } from '../../../src/core/effects.js';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';
import { httpEffects } from '../../../src/packs/http/tools/http-effects.js';

/** A successful POST as the request tool records it: effects built by the HTTP pack itself. */
function created(seq: number, path: string, id: number, requestBody: Record<string, unknown>): LedgerEntry {
  const response = {
    method: 'POST',
    path,
    url: `http://127.0.0.1${path}`,
    status: 201,
    ok: true,
    ids: [String(id)],
    body: { id, ...requestBody },
    durationMs: 1,
  };
  return {
    runId: 'r',
    seq,
    ts: '',
    kind: 'tool_call',
    name: 'request',
    outcome: 'ok',
    data: {
      tool: 'request',
      target: `POST ${path}`,
      input: {},
      evidence: {
        via: `POST ${path} → 201`,
        effects: httpEffects(response, requestBody, (p) => p.replace(/\/\d+(?=\/|$)/g, '/{id}')),
      },
    },
  };
}

const check = (
  entries: LedgerEntry[],
  request = { count: 1, type: 'posts', children: { count: 2, type: 'comments' } },
) =>
  requestProblems(
    request,
    { path: '', fallback: false },
    { net: netEffects(entries), entries, verified: [] },
  );

describe('each child is linked to a parent this run created', () => {
  it.each([
    ['postId (json-server)', 'postId'],
    ['post_id (Rails)', 'post_id'],
    ['post (Django REST: a foreign key under the plain name)', 'post'],
  ])('by a body field: %s', (_name, field) => {
    expect(
      check([
        created(1, '/posts', 1, { title: 'P' }),
        created(2, '/comments', 1, { body: 'a', [field]: 1 }),
        created(3, '/comments', 2, { body: 'b', [field]: 1 }),
      ]),
    ).toEqual([]);
  });

  it('by the path: /posts/1/comments', () => {
    expect(
      check([
        created(1, '/posts', 1, { title: 'P' }),
        created(2, '/posts/1/comments', 1, { body: 'a' }),
        created(3, '/posts/1/comments', 2, { body: 'b' }),
      ]),
    ).toEqual([]);
  });

  it('a child pointing at a parent this run did not create is not linked, whatever the field', () => {
    expect(
      check([
        created(1, '/posts', 2, { title: 'P' }),
        created(2, '/comments', 1, { body: 'a', post: 1 }),
        created(3, '/comments', 2, { body: 'b', post: 2 }),
      ]),
    ).toEqual([
      'comment 1 is not linked to a post this run created (it points at 1)',
      'post 2 has 1 of the 2 comments asked for',
    ]);
  });

  it('a number under an unrelated name is not a link', () => {
    expect(
      check([
        created(1, '/posts', 1, { title: 'P' }),
        created(2, '/comments', 1, { body: 'a', position: 1 }),
        created(3, '/comments', 2, { body: 'b', position: 1 }),
      ]),
    ).toEqual([
      'comment 1 is not linked to a post this run created',
      'comment 2 is not linked to a post this run created',
      'post 1 has 0 of the 2 comments asked for',
    ]);
  });

  it('"1 test suite with 1 test": the test is the child, not a second parent', () => {
    expect(
      check(
        [created(1, '/suites', 101, { title: 'S' }), created(2, '/suites/101/tests', 1, { title: 'T' })],
        { count: 1, type: 'test suites', children: { count: 1, type: 'tests' } },
      ),
    ).toEqual([]);
  });
});
