import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3StreamPart,
  UnsupportedFunctionalityError,
} from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../../src/core/agent/run-agent.js';
import type { RunEvent } from '../../../src/core/agent/run-observer.js';
import type { LedgerEntry } from '../../../src/core/ledger/entry.js';
import {
  callTool,
  callTools,
  type ScriptStep,
  say,
  scriptedModel,
} from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { itemAgent } from './fixtures.js';

type Observed = { events: RunEvent[]; onEvent: (event: RunEvent) => void };
const observe = (): Observed => {
  const events: RunEvent[] = [];
  return { events, onEvent: (event) => events.push(event) };
};
const deltasOf = (events: RunEvent[]) =>
  events.flatMap((event) => (event.type === 'model-text-delta' ? [event.delta] : []));

/** What must not depend on how the model was called: the ledger less its clocks, and the result. */
function normalized(entries: LedgerEntry[]) {
  return entries.map(({ kind, name, outcome, seq, data }) => {
    const { durationMs: _duration, ...rest } = data;
    return { seq, kind, name, outcome, data: rest };
  });
}

async function runBoth(script: () => ScriptStep[], task: string, options: { maxRetries?: number } = {}) {
  const plain = { ledger: tempLedger(), model: scriptedModel(script()) };
  const watched = { ledger: tempLedger(), model: scriptedModel(script()), ...observe() };
  const plainResult = await runAgent(itemAgent().agent, task, { ...plain, ...options });
  const watchedResult = await runAgent(itemAgent().agent, task, {
    ledger: watched.ledger,
    model: watched.model,
    onEvent: watched.onEvent,
    ...options,
  });
  return {
    plain: { result: plainResult, entries: plain.ledger.entries(plainResult.runId), model: plain.model },
    watched: {
      result: watchedResult,
      entries: watched.ledger.entries(watchedResult.runId),
      model: watched.model,
      events: watched.events,
    },
  };
}

/** A model that streams the given parts, then whatever `tail` does with the stream controller. */
function streamingModel(
  parts: LanguageModelV3StreamPart[],
  tail: (
    controller: ReadableStreamDefaultController<LanguageModelV3StreamPart>,
    call: LanguageModelV3CallOptions,
  ) => void = (controller) => controller.close(),
): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'test',
    modelId: 'stream',
    supportedUrls: {},
    doGenerate: async () => {
      throw new Error('this model only streams');
    },
    doStream: async (call) => ({
      stream: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          tail(controller, call);
        },
      }),
    }),
  };
}

const USAGE = {
  inputTokens: { total: 7, noCache: 7, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 3, text: 3, reasoning: undefined },
};
const textParts = (...deltas: string[]): LanguageModelV3StreamPart[] => [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: 't' },
  ...deltas.map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
  { type: 'text-end', id: 't' },
];

describe('the model text streams to an observer while the ledger stays as it was', () => {
  it('deltas arrive in order before their model_call entry, and joined they are the step text', async () => {
    const { agent } = itemAgent();
    const watched = observe();
    const result = await runAgent(agent, 'Store item a1', {
      ledger: tempLedger(),
      model: scriptedModel([
        callTool('put_item', { id: 'a1', value: 'x' }, 'Storing a1 now, then I check it.'),
        callTool('finish', { summary: 'Stored a1.', claims: [{ target: 'a1', type: 'item' }] }),
      ]),
      onEvent: watched.onEvent,
    });
    expect(result.endingReason).toBe('finished');
    const types = watched.events.map((event) =>
      event.type === 'entry' ? event.entry.kind : event.type === 'run-start' ? 'run-start' : event.type,
    );
    const firstCall = types.indexOf('model_call');
    const deltas = deltasOf(watched.events);
    expect(deltas.length).toBeGreaterThan(3); // word by word, not the whole text at once
    expect(types.slice(1, 1 + deltas.length)).toEqual(deltas.map(() => 'model-text-delta'));
    expect(firstCall).toBe(1 + deltas.length);
    expect(types[firstCall + 1]).toBe('model-text');
    expect(deltas.join('')).toBe('Storing a1 now, then I check it.');
    const whole = watched.events.find((event) => event.type === 'model-text');
    expect(whole).toMatchObject({ text: 'Storing a1 now, then I check it.', runId: result.runId });
  });

  it.each<[string, () => ScriptStep[], string, { maxRetries?: number }?]>([
    [
      'finished',
      () => [
        callTool('put_item', { id: 'a1', value: 'x' }, 'Storing a1.'),
        callTool('finish', { summary: 'Stored a1.', claims: [{ target: 'a1', type: 'item' }] }),
      ],
      'Store item a1',
    ],
    [
      'a rejected finish, then finished',
      () => [
        callTool('finish', { summary: 'Stored b2.', claims: [{ target: 'b2' }] }, 'All done.'),
        callTool('put_item', { id: 'b2', value: 'y' }),
        callTool('finish', { summary: 'Stored b2.', claims: [{ target: 'b2' }] }),
      ],
      'Store item b2',
    ],
    [
      'tool_failure after the finish nudge',
      () => [callTool('get_item', { id: 'missing' }, 'Reading.'), say('Not there.'), say('Still not.')],
      'Read item missing',
    ],
    [
      'loop',
      () => [1, 2, 3, 4, 5].map(() => callTool('put_item', { id: 'same', value: 'v' }, 'Storing.')),
      'Store same',
    ],
    ['no_text', () => [callTool('put_item', { id: 'n', value: 'v' }, 'Storing.'), { text: '' }], 'Store n'],
    [
      'model_error',
      () => [
        callTool('put_item', { id: 'm', value: 'v' }, 'Storing.'),
        { error: 'upstream 503: overloaded' },
      ],
      'Store m',
      { maxRetries: 0 },
    ],
    [
      'a rate-limited call retried',
      () => [
        callTool('put_item', { id: 'r', value: 'v' }, 'Storing r.'),
        {
          error: new APICallError({
            message: 'Rate limit reached',
            url: 'https://api.example.test/v1/responses',
            requestBodyValues: {},
            statusCode: 429,
            isRetryable: true,
          }),
        },
        callTool('finish', { summary: 'Stored r.', claims: [{ target: 'r' }] }, 'Done with r.'),
      ],
      'Store r',
      { maxRetries: 1 },
    ],
    [
      'unknown tool and unreadable arguments',
      () => [
        callTools([
          { toolName: 'no_such_tool', input: {} },
          { toolName: 'put_item', input: {}, rawInput: '{"id": "x", ' },
        ]),
        callTool('stop', { reason: 'giving up' }),
      ],
      'Store x',
    ],
    [
      'parallel calls',
      () => [
        callTools(
          ['p1', 'p2', 'p3'].map((id) => ({ toolName: 'put_item', input: { id, value: id } })),
          'Storing three.',
        ),
        callTool('finish', {
          summary: 'Stored.',
          claims: [{ target: 'p1' }, { target: 'p2' }, { target: 'p3' }],
        }),
      ],
      'Store three',
    ],
  ])(
    '%s: the same ledger and result whether the text streamed or not',
    async (_name, script, task, options) => {
      const { plain, watched } = await runBoth(script, task, options);
      const texts = watched.events.flatMap((event) => (event.type === 'model-text' ? [event.text] : []));
      const squeeze = (text: string) => text.replace(/\s+/g, '');
      expect(squeeze(deltasOf(watched.events).join(''))).toBe(squeeze(texts.join('')));
      expect(normalized(watched.entries)).toEqual(normalized(plain.entries));
      expect({ ...watched.result, runId: '' }).toEqual({ ...plain.result, runId: '' });
      expect(watched.model.remaining).toBe(plain.model.remaining);
      expect(JSON.stringify(watched.model.calls.map((call) => call.prompt))).toBe(
        JSON.stringify(plain.model.calls.map((call) => call.prompt)),
      );
    },
  );

  it('a model that cannot stream falls back to one whole response: same ledger, its text told whole', async () => {
    const inner = scriptedModel([
      callTool('put_item', { id: 'a1', value: 'x' }, 'Storing a1.'),
      callTool('finish', { summary: 'Stored a1.', claims: [{ target: 'a1' }] }),
    ]);
    let refused = 0;
    const model: LanguageModelV3 = {
      specificationVersion: 'v3',
      provider: inner.provider,
      modelId: inner.modelId,
      supportedUrls: {},
      doGenerate: (options) => inner.doGenerate(options),
      doStream: async () => {
        refused += 1;
        throw new UnsupportedFunctionalityError({ functionality: 'streaming' });
      },
    };
    const watched = observe();
    const ledger = tempLedger();
    const result = await runAgent(itemAgent().agent, 'Store item a1', {
      ledger,
      model,
      onEvent: watched.onEvent,
    });
    expect(result.endingReason).toBe('finished');
    expect(refused).toBe(1); // asked once; the run's later calls do not try again
    expect(deltasOf(watched.events)).toEqual([]);
    expect(watched.events.find((event) => event.type === 'model-text')).toMatchObject({
      text: 'Storing a1.',
    });
    expect(ledger.entries(result.runId).filter((entry) => entry.kind === 'model_call')).toHaveLength(2);
  });

  it('a stream that fails mid-response ends the run with model_error and no model_call entry', async () => {
    // As @ai-sdk/openai does on a broken chunk: an error part, then the finish of the stream.
    const model = streamingModel(textParts('Half an ', 'answer'), (controller) => {
      controller.enqueue({ type: 'error', error: new Error('connection reset by peer') });
      controller.enqueue({
        type: 'finish',
        usage: USAGE,
        finishReason: { unified: 'error', raw: undefined },
      });
      controller.close();
    });
    const watched = observe();
    const ledger = tempLedger();
    const result = await runAgent(itemAgent().agent, 'Store item a1', {
      ledger,
      model,
      onEvent: watched.onEvent,
      maxRetries: 0,
    });
    expect(result.endingReason).toBe('model_error');
    expect(result.summary).toContain('connection reset by peer');
    const entries = ledger.entries(result.runId);
    expect(entries.map((entry) => entry.kind)).toEqual(['end']);
    expect(result.counts.modelCalls).toBe(0);
    expect(deltasOf(watched.events).join('')).toBe('Half an ');
  });

  it('a streamed response records its usage and finish reason from the stream’s end', async () => {
    const model = streamingModel(
      [
        ...textParts('Nothing ', 'to ', 'store.'),
        { type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: 'stop' } },
      ],
      (controller) => controller.close(),
    );
    const ledger = tempLedger();
    const result = await runAgent(itemAgent({ requireFinish: false }).agent, 'Store nothing', {
      ledger,
      model,
      onEvent: () => undefined,
    });
    expect(result).toMatchObject({ endingReason: 'finished', text: 'Nothing to store.' });
    expect(ledger.entries(result.runId)[0]).toMatchObject({
      kind: 'model_call',
      name: 'test:stream',
      data: { model: 'test:stream', round: 1, inputTokens: 7, outputTokens: 3, finishReason: 'stop' },
    });
  });

  it('a stream that closes without its finish part is still recorded as a model call', async () => {
    const ledger = tempLedger();
    const result = await runAgent(itemAgent({ requireFinish: false }).agent, 'Say hello', {
      ledger,
      model: streamingModel(textParts('Hello ', 'there.')),
      onEvent: () => undefined,
    });
    expect(result).toMatchObject({ endingReason: 'finished', text: 'Hello there.' });
    expect(ledger.entries(result.runId)[0]).toMatchObject({
      kind: 'model_call',
      data: { round: 1, inputTokens: null, outputTokens: null, finishReason: 'other' },
    });
  });

  it('aborting while the text streams ends the run as aborted', async () => {
    const controller = new AbortController();
    const model = streamingModel(textParts('Thinking ', 'about '), (stream, call) => {
      call.abortSignal?.addEventListener('abort', () =>
        stream.error(new DOMException('This operation was aborted', 'AbortError')),
      );
    });
    const ledger = tempLedger();
    const result = await runAgent(itemAgent().agent, 'Store item a1', {
      ledger,
      model,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'model-text-delta') controller.abort();
      },
    });
    expect(result.endingReason).toBe('aborted');
    expect(ledger.entries(result.runId).map((entry) => entry.kind)).toEqual(['end']);
  });

  it('Security: a known secret split over deltas never shows in them, nor a bearer token', async () => {
    const ledger = tempLedger();
    const model = streamingModel(
      [
        ...textParts(
          'I used s3cret-',
          'value-42 and ',
          'Authorization: Bearer ',
          'abc123def',
          '456 to log in.',
        ),
        { type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: 'stop' } },
      ],
      (controller) => controller.close(),
    );
    const watched = observe();
    const result = await ledger.withKnownSecrets(['s3cret-value-42'], () =>
      runAgent(itemAgent({ requireFinish: false }).agent, 'Log in', {
        ledger,
        model,
        onEvent: watched.onEvent,
      }),
    );
    const shown = deltasOf(watched.events).join('');
    expect(shown).toBe('I used [redacted] and Authorization: Bearer [redacted] to log in.');
    for (const delta of deltasOf(watched.events)) {
      expect(delta).not.toMatch(/s3cret|value-42|abc123|def456/);
    }
    expect(JSON.stringify(watched.events)).not.toMatch(/s3cret|abc123def456/);
    expect(result.text).toBe('I used [redacted] and Authorization: Bearer [redacted] to log in.');
  });

  it('Security: a secret-named pair in prose split after `name: ` never shows its value in a delta', async () => {
    const ledger = tempLedger();
    const model = streamingModel(
      [
        ...textParts(
          'Connected with password: ',
          'hunter22 and ',
          'db_password=',
          'swordfish9 then stopped.',
        ),
        { type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: 'stop' } },
      ],
      (controller) => controller.close(),
    );
    const watched = observe();
    const result = await runAgent(itemAgent({ requireFinish: false }).agent, 'Log in', {
      ledger,
      model,
      onEvent: watched.onEvent,
    });
    const expected = 'Connected with password: [redacted] and db_password=[redacted] then stopped.';
    expect(deltasOf(watched.events).join('')).toBe(expected);
    expect(JSON.stringify(watched.events)).not.toMatch(/hunter22|swordfish9/);
    expect(result.text).toBe(expected);
    expect(JSON.stringify(ledger.entries(result.runId))).not.toMatch(/hunter22|swordfish9/);
  });

  it('Security: a pair whose value holds spaces or follows a space never shows its value in a delta', async () => {
    const ledger = tempLedger();
    const model = streamingModel(
      [
        ...textParts(
          'Sent Cookie: lang=en; ',
          'sid=cookie777 and ',
          'ran --password ',
          'flagpw888 with\npassword = ',
          '"spaced999" set, ',
          'authorization: bearer ',
          'lowtok000 done.',
        ),
        { type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: 'stop' } },
      ],
      (controller) => controller.close(),
    );
    const watched = observe();
    const result = await runAgent(itemAgent({ requireFinish: false }).agent, 'Log in', {
      ledger,
      model,
      onEvent: watched.onEvent,
    });
    const secrets = /cookie777|flagpw888|spaced999|lowtok000/;
    for (const delta of deltasOf(watched.events)) expect(delta).not.toMatch(secrets);
    expect(JSON.stringify(watched.events)).not.toMatch(secrets);
    expect(result.text).not.toMatch(secrets);
    expect(JSON.stringify(ledger.entries(result.runId))).not.toMatch(secrets);
  });
});
