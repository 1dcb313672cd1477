import { describe, expect, it } from 'vitest';
import {
  isReported,
  type UnrecoveredFailure,
  unmetReasons,
  unrecoveredFailures,
} from '../../../src/core/agent/run-status.js';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';
import type { ToolDefinition } from '../../../src/core/tool.js';

const tool = (name: string, options: Partial<ToolDefinition> = {}) =>
  ({ name, annotations: {}, ...options }) as unknown as ToolDefinition;

/** `request` names its intent from the input; `write` has none and is effectful; `read` is read-only. */
const TOOLS = [
  tool('request', { intent: (input: { intent?: string }) => input.intent }),
  tool('write'),
  tool('read', { annotations: { readOnly: true } }),
  tool('fragile', {
    intent: () => {
      throw new Error('no intent');
    },
  }),
];

let seq = 0;
function call(
  name: string,
  outcome: 'ok' | 'error' | 'rejected',
  data: Record<string, unknown> = {},
): LedgerEntry {
  seq += 1;
  return { runId: 'r', seq, ts: '', kind: 'tool_call', name, outcome, data: { tool: name, ...data } };
}
const post = (intent: string, outcome: 'ok' | 'error' | 'rejected') =>
  call('request', outcome, { target: intent, input: { intent } });
const intents = (entries: LedgerEntry[]) =>
  unrecoveredFailures(entries, TOOLS).map((failure) => failure.intent);

describe('a failed effectful call stays a failure until the same intent succeeds', () => {
  it('a failed create is not recovered by a create of something else', () => {
    expect(intents([post('POST /suites "Alpha"', 'error'), post('POST /suites "Beta"', 'ok')])).toEqual([
      'POST /suites "Alpha"',
    ]);
  });

  it('a failed create without a title is recovered by the same create with one', () => {
    expect(intents([post('POST /suites', 'error'), post('POST /suites "Smoke"', 'ok')])).toEqual([]);
  });

  it('a longer path is not the same intent', () => {
    expect(intents([post('POST /suites', 'error'), post('POST /suitesX', 'ok')])).toEqual(['POST /suites']);
  });

  it('a success before the failure recovers nothing', () => {
    expect(intents([post('POST /a', 'ok'), post('POST /a', 'error')])).toEqual(['POST /a']);
  });

  it('a success of another tool with the same intent does not recover it', () => {
    const entries = [
      call('write', 'error', { target: 'a.txt' }),
      call('request', 'ok', { target: 'a.txt', input: { intent: 'a.txt' } }),
    ];
    expect(intents(entries)).toEqual(['a.txt']);
  });

  it('a refused step is a failed step: the request it served is not met until the same intent succeeds', () => {
    expect(intents([post('POST /a', 'rejected')])).toEqual(['POST /a']);
    expect(unrecoveredFailures([post('POST /a', 'rejected')], TOOLS)[0]?.refused).toBe(true);
    expect(intents([post('POST /a', 'rejected'), post('POST /a', 'ok')])).toEqual([]);
    expect(intents([post('POST /a', 'rejected'), post('POST /b', 'ok')])).toEqual(['POST /a']);
  });

  it('a refusal that names the path it would accept is recovered by a success there, and only there', () => {
    const refused = call('write', 'rejected', {
      target: '/elsewhere/docs/b.md',
      error: { code: 'PATH_OUTSIDE_PROJECT', message: 'outside', details: { suggestion: 'docs/b.md' } },
    });
    expect(intents([refused, call('write', 'ok', { target: 'docs/b.md' })])).toEqual([]);
    expect(intents([refused, call('write', 'ok', { target: 'docs/c.md' })])).toEqual([
      '/elsewhere/docs/b.md',
    ]);
  });

  it('a refusal names a suggestion only when it gave one as text', () => {
    const refusal = (details?: unknown) =>
      call('write', 'rejected', {
        target: `/elsewhere/${details ? 'c' : 'b'}.md`,
        error: { code: 'PATH_OUTSIDE_PROJECT', message: 'outside', ...(details ? { details } : {}) },
      });
    const [plain, odd] = unrecoveredFailures([refusal(), refusal({ suggestion: { path: 'b.md' } })], TOOLS);
    expect(plain).not.toHaveProperty('suggestion');
    expect(odd).not.toHaveProperty('suggestion');
  });

  it('a call refused because its input could not be read is recovered by any later success of the tool', () => {
    const unread = call('write', 'rejected', {
      target: 'write',
      input: 'not an object',
      error: { code: 'INVALID_INPUT', message: 'bad' },
    });
    expect(intents([unread])).toEqual(['']);
    expect(intents([unread, call('write', 'ok', { target: 'b.txt' })])).toEqual([]);
    expect(intents([unread, call('read', 'ok', { target: 'b.txt' })])).toEqual(['']);
  });

  it('reads, unknown tools and other entries are never failures', () => {
    const entries: LedgerEntry[] = [
      call('read', 'error', { target: 'a.txt' }),
      call('ghost', 'error', { target: 'x' }),
      { ...call('write', 'error', { target: 'b.txt' }), kind: 'claim' },
    ];
    expect(intents(entries)).toEqual([]);
  });

  it('a tool without an intent function is known by its target', () => {
    expect(
      intents([call('write', 'error', { target: 'a.txt' }), call('write', 'ok', { target: 'b.txt' })]),
    ).toEqual(['a.txt']);
    expect(
      intents([call('write', 'error', { target: 'a.txt' }), call('write', 'ok', { target: 'a.txt' })]),
    ).toEqual([]);
  });

  it('an intent function that throws falls back to the target', () => {
    expect(intents([call('fragile', 'error', { target: 'x', input: {} })])).toEqual(['x']);
  });

  it('an intent function that throws a non-Error is not swallowed', () => {
    const odd = tool('odd', {
      intent: () => {
        throw 'not an error';
      },
    });
    expect(() => unrecoveredFailures([call('odd', 'error', { target: 'x' })], [odd])).toThrow('not an error');
  });

  it('an intent of undefined (a read through an effectful tool) is never a failure', () => {
    expect(intents([call('request', 'error', { target: 'GET /a', input: {} })])).toEqual([]);
  });

  it('a lost create found again recovers the failed call it names', () => {
    const found = call('request', 'ok', {
      target: 'GET /suites',
      input: {},
      evidence: {
        effects: [
          null,
          { kind: 'read' },
          { kind: 'created', recovers: { tool: 'request', intent: 'POST /suites "A"' } },
        ],
      },
    });
    expect(intents([post('POST /suites "A"', 'error'), post('POST /suites "B"', 'error'), found])).toEqual([
      'POST /suites "B"',
    ]);
  });

  it('a recovery only counts from a successful call', () => {
    const failedRead = call('request', 'error', {
      target: 'GET /suites',
      input: {},
      evidence: { effects: [{ kind: 'created', recovers: { tool: 'request', intent: 'POST /a' } }] },
    });
    expect(intents([post('POST /a', 'error'), failedRead])).toEqual(['POST /a']);
  });

  it('effects that are not a list recover nothing and do not break the rule', () => {
    const odd = call('request', 'ok', { target: 'GET /a', input: {}, evidence: { effects: 'none' } });
    expect(intents([post('POST /a', 'error'), odd])).toEqual(['POST /a']);
  });

  it('failures are listed oldest first, a repeated failure at its latest place', () => {
    const entries = [post('POST /a', 'error'), post('POST /b', 'error'), post('POST /a', 'error')];
    const failures = unrecoveredFailures(entries, TOOLS);
    expect(failures.map((failure) => [failure.intent, failure.seq])).toEqual([
      ['POST /b', entries[1]?.seq],
      ['POST /a', entries[2]?.seq],
    ]);
    expect(failures[0]).toEqual({
      seq: entries[1]?.seq,
      tool: 'request',
      intent: 'POST /b',
      refused: false,
      description: 'request POST /b',
    });
  });
});

describe('a failure is described in the server’s or the tool’s own words', () => {
  const describeOnly = (data: Record<string, unknown>) =>
    unrecoveredFailures([call('write', 'error', { target: 'a.txt', ...data })], TOOLS)[0]?.description;

  it.each([
    [
      'the evidence line and the server message',
      { evidence: { via: 'POST /x → 403' }, result: { message: 'Forbidden' } },
      'POST /x → 403: Forbidden',
    ],
    [
      'the evidence line alone',
      { evidence: { via: 'POST /x → 500' }, result: { message: 42 } },
      'POST /x → 500',
    ],
    ['a non-text evidence line falls back to the tool', { evidence: { via: 7 } }, 'write a.txt'],
    ['the tool, target and error', { error: { code: 'E', message: 'disk full' } }, 'write a.txt (disk full)'],
    ['the tool and target', {}, 'write a.txt'],
    ['the tool when the target is the tool', { target: 'write' }, 'write'],
    ['the tool when there is no target', { target: '' }, 'write'],
  ])('%s', (_name, data, expected) => {
    expect(describeOnly(data)).toBe(expected);
  });
});

const failure = (intent: string, description = intent): UnrecoveredFailure => ({
  seq: 1,
  tool: 'request',
  intent,
  description,
});

describe('whether the agent reported a failure', () => {
  it('by target or type, whatever the case', () => {
    expect(isReported(failure('POST /suites "Smoke"'), [{ target: '"smoke"', reason: 'r' }])).toBe(true);
    expect(
      isReported(failure('POST /suites', 'POST /suites → 403: Forbidden'), [
        { type: 'FORBIDDEN', reason: 'r' },
      ]),
    ).toBe(true);
    expect(isReported(failure('POST /suites'), [{ target: ' /SUITES ', reason: 'r' }])).toBe(true);
  });

  it('not by a failure about something else, nor by a blank word', () => {
    expect(isReported(failure('POST /suites'), [{ target: '/tests', type: 'test', reason: 'r' }])).toBe(
      false,
    );
    expect(isReported(failure('POST /suites'), [{ target: '  ', type: '', reason: 'r' }])).toBe(false);
    expect(isReported(failure('POST /suites'), [{ target: ' /suites\n', reason: 'r' }])).toBe(true);
    expect(isReported(failure('POST /suites'), [{ reason: 'POST /suites failed' }])).toBe(false);
    expect(isReported(failure('POST /suites'), [])).toBe(false);
  });
});

describe('why a run is not a success', () => {
  const none = { droppedCount: 0, failures: [], reported: [], requestProblems: [] };

  it('nothing unmet is a success', () => {
    expect(unmetReasons(none)).toEqual([]);
  });

  it('counts dropped claims in words', () => {
    expect(unmetReasons({ ...none, droppedCount: 1 })).toEqual(['1 claim was not backed by evidence']);
    expect(unmetReasons({ ...none, droppedCount: 2 })).toEqual(['2 claims were not backed by evidence']);
  });

  it('names each failure, and whether the agent reported it', () => {
    expect(
      unmetReasons({
        ...none,
        failures: [failure('POST /a', 'POST /a → 500'), failure('POST /b', 'POST /b → 403')],
        reported: [{ target: '/b', reason: 'forbidden' }],
      }),
    ).toEqual([
      'POST /a → 500 failed and was never retried successfully (not reported by the agent)',
      'POST /b → 403 failed and was never retried successfully (reported as failed)',
      'reported as not done: /b — forbidden',
    ]);
  });

  it('says a refused step was refused, not that it failed', () => {
    expect(
      unmetReasons({
        ...none,
        failures: [{ ...failure('write /elsewhere/b.md', 'write /elsewhere/b.md (outside)'), refused: true }],
      }),
    ).toEqual([
      'write /elsewhere/b.md (outside) was refused and was never retried successfully (not reported by the agent)',
    ]);
  });

  it('quotes what the agent reported as not done, with or without a type and target', () => {
    expect(
      unmetReasons({
        ...none,
        reported: [
          { type: 'suite', target: 'Smoke', reason: 'server error' },
          { type: 'suite', reason: 'quota' },
          { reason: 'ran out of time' },
        ],
        requestProblems: ['asked for 2 suites, this run created 1'],
      }),
    ).toEqual([
      'reported as not done: suite Smoke — server error',
      'reported as not done: suite — quota',
      'reported as not done: ran out of time',
      'asked for 2 suites, this run created 1',
    ]);
  });
});
