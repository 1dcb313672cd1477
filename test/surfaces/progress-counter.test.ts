import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/core/agent/run-observer.js';
import type { NewEntry } from '../../src/core/ledger/entry.js';
import { compactCounter, plannedCreates } from '../../src/surfaces/cli/progress/job-counter.js';
import { createProgressRenderer } from '../../src/surfaces/cli/progress/progress-renderer.js';
import { runTally, tempDir } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';

const plain = (text: string) => text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

/** A stream that keeps what is written; `tty` makes it an 80-column terminal, for ora. */
function collector(tty: boolean) {
  let raw = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      raw += String(chunk);
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  if (tty)
    Object.assign(stream, {
      isTTY: true,
      columns: 80,
      rows: 24,
      cursorTo: () => stream.write('\u001b[G'),
      moveCursor: () => stream.write('\u001b[A'),
      clearLine: () => stream.write('\u001b[2K'),
    });
  return { stream, text: () => plain(raw) };
}

const runId = 'run_counted';
const event = (entry: NewEntry, time: number): RunEvent => ({
  type: 'entry',
  runId,
  agent: 'fisherman',
  entry,
  time,
});
/** "N suites with 2 tests each": the contract entry a Fisherman run records first. */
const contract = (suites: number) =>
  event(
    {
      kind: 'contract',
      name: 'request',
      outcome: 'stated',
      data: {
        source: 'request',
        description: `${suites} suites with 2 tests each`,
        data: {
          entities: [
            { ref: 'suite', type: 'suite', count: suites },
            { ref: 'test', type: 'test', count: 2, parent: { ref: 'suite' }, perParent: true },
          ],
        },
        words: [String(suites), 'suites', '2', 'tests'],
      },
    },
    0,
  );
const create = (index: number, time: number, ok = true) =>
  event(
    {
      kind: 'tool_call',
      name: 'request',
      outcome: ok ? 'ok' : 'error',
      data: {
        tool: 'request',
        target: 'POST /api/alpha-shop/suites',
        input: { method: 'POST', path: '/api/alpha-shop/suites', body: { title: `Suite ${index}` } },
        ...(ok ? {} : { error: { code: 'HTTP_500', message: 'database is locked' } }),
      },
    },
    time,
  );
const end = (time: number) => event({ kind: 'end', outcome: 'finished', data: { status: 'partial' } }, time);

describe('a long job is a counter, not a line per create (issue 23, finding 12)', () => {
  it('planned creates are read from the contract: per-parent counts multiplied out', () => {
    const entry = contract(10) as Extract<RunEvent, { type: 'entry' }>;
    expect(plannedCreates(entry.entry.data)).toBe(30);
    expect(plannedCreates({ data: { files: ['a'] } })).toBeUndefined();
    // Read without a schema parse: what is not a contract's shape counts nothing, and throws nothing.
    for (const data of [
      null,
      undefined,
      { entities: [] },
      { entities: [null] },
      { entities: [{ ref: 'suite', count: 0 }] },
      { entities: [{ ref: 'suite', count: 1.5 }] },
      { entities: [{ count: 2 }] },
      { entities: [{ ref: 'test', count: 2, perParent: true, parent: 'suite' }] },
    ])
      expect(plannedCreates({ data }), JSON.stringify(data)).toBeUndefined();
    expect(plannedCreates(null)).toBeUndefined();
  });

  it('on a terminal: the ok creates of a 60-create run print no line each; failures do; the count ends as a line', async () => {
    const out = collector(true);
    const renderer = await createProgressRenderer({ stream: out.stream, verbose: false, spinner: true });
    renderer.observer({
      type: 'run-start',
      runId,
      agent: 'fisherman',
      task: '20 suites with 2 tests each',
      meta: { tier: 'deterministic' },
      time: 0,
    });
    renderer.observer(contract(20));
    for (let index = 1; index <= 60; index += 1) renderer.observer(create(index, index * 50, index !== 7));
    renderer.observer(end(3050));
    renderer.stop();
    const text = out.text();
    expect(text).not.toMatch(/✓ request/);
    expect(
      text.match(/✗ request POST \/api\/alpha-shop\/suites · error HTTP_500: database is locked/g),
    ).toHaveLength(1);
    // 59 made, 1 failed, 60 handled in 2.95 s after the first.
    expect(text).toContain('fisherman 59/60 created · 1 failed · 20/s\n');
    expect(text).toMatch(/■ partial · finished/);
  });

  it('off a terminal: one compact line per tenth (and at most every N seconds between), nothing below the threshold', () => {
    const out = collector(false);
    const observe = compactCounter(out.stream, { everyMs: 10_000 });
    observe(contract(40)); // 120 creates
    for (let index = 1; index <= 120; index += 1) observe(create(index, index * 100));
    const lines = out.text().trim().split('\n');
    expect(lines[0]).toBe('fisherman 0/120 created');
    expect(lines.at(-1)).toBe('fisherman 120/120 created · 10/s');
    expect(lines).toHaveLength(11);
    // A slow job: a line every 10 s even within one tenth.
    const slow = collector(false);
    const observeSlow = compactCounter(slow.stream, { everyMs: 10_000 });
    observeSlow(contract(100)); // 300 creates: a tenth is 30
    for (let index = 1; index <= 5; index += 1) observeSlow(create(index, index * 6_000));
    expect(slow.text().trim().split('\n')).toEqual([
      'fisherman 0/300 created',
      'fisherman 2/300 created · 0.3/s',
      'fisherman 4/300 created · 0.2/s',
    ]);
    const small = collector(false);
    const observeSmall = compactCounter(small.stream);
    observeSmall(contract(5));
    for (let index = 1; index <= 15; index += 1) observeSmall(create(index, index));
    expect(small.text()).toBe('');
  });

  it('tally fish "12 suites with 2 tests each" off a terminal: a few counter lines on stderr; --json none', async () => {
    const { app } = await demoApp();
    const cwd = tempDir();
    const args = [
      'fish',
      '12 suites with 2 tests each',
      '--captures',
      BUNDLED_HAR,
      '--base-url',
      app.url,
      '--scope',
      '/projects/alpha-shop',
      '--login',
      'demo',
    ];
    const fish = await runTally(args, { cwd });
    expect(fish.code, fish.stderr).toBe(0);
    const lines = fish.stderr.trim().split('\n');
    expect(lines[0]).toBe('fisherman 0/36 created');
    expect(lines.at(-1)).toMatch(/^fisherman 36\/36 created · [\d.]+\/s$/);
    expect(lines.length).toBeLessThanOrEqual(12);
    expect(lines.every((line) => /^fisherman \d+\/36 created/.test(line))).toBe(true);
    const json = await runTally([...args, '--json'], { cwd });
    expect(json.code).toBe(0);
    expect(json.stderr).toBe('');
  });
});
