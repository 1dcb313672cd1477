import { execFile } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/core/agent/run-observer.js';
import type { NewEntry } from '../../src/core/ledger/entry.js';
import { eventsWriter } from '../../src/surfaces/cli/progress/events-writer.js';
import { formatProgressEvent } from '../../src/surfaces/cli/progress/format-progress-event.js';
import { createProgressRenderer } from '../../src/surfaces/cli/progress/progress-renderer.js';
import { tempDir } from '../helpers.js';

// Colours depend on the environment (CI=true turns them on): the words are what is asserted.
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

/** A stream that keeps what is written; `tty` makes it a terminal 80 columns wide, for ora. */
function collector(tty = false) {
  let raw = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      raw += String(chunk);
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  if (tty) {
    Object.assign(stream, {
      isTTY: true,
      columns: 80,
      rows: 24,
      cursorTo: () => stream.write('\u001b[G'),
      moveCursor: () => stream.write('\u001b[A'),
      clearLine: () => stream.write('\u001b[2K'),
    });
  }
  return { stream, raw: () => raw, text: () => plain(raw) };
}

const runId = 'run_streaming';
const at = { runId, agent: 'items', time: 0 };
const start: RunEvent = { type: 'run-start', ...at, task: 'Store a1', meta: { model: 'scripted:script' } };
const delta = (text: string): RunEvent => ({ type: 'model-text-delta', ...at, delta: text });
const whole = (text: string): RunEvent => ({ type: 'model-text', ...at, text });
const entry = (value: NewEntry): RunEvent => ({ type: 'entry', ...at, entry: value });
const modelCall = entry({
  kind: 'model_call',
  name: 'scripted:script',
  data: {
    model: 'scripted:script',
    round: 1,
    inputTokens: 10,
    outputTokens: 5,
    finishReason: 'stop',
    durationMs: 3,
  },
});
const ended = entry({ kind: 'end', outcome: 'finished', data: { status: 'success' } });

describe('streamed model text on the terminal', () => {
  it('shows each piece the moment it arrives, then the model call, and not the whole text again', async () => {
    const out = collector();
    const renderer = await createProgressRenderer({ stream: out.stream, verbose: false, spinner: false });
    renderer.observer(start);
    renderer.observer(delta('Storing '));
    expect(out.text()).toMatch(/\n {2}“Storing$/); // live: before the step ended
    renderer.observer(delta('a1 '));
    renderer.observer(delta('now.'));
    expect(out.text()).toMatch(/\n {2}“Storing a1 now\.$/);
    renderer.observer(modelCall);
    renderer.observer(whole('Storing a1 now.'));
    renderer.observer(ended);
    renderer.stop();
    const lines = out.text().split('\n');
    expect(lines[1]).toBe('  “Storing a1 now.”');
    expect(lines[2]).toMatch(/^◆ model scripted:script round 1 · 10 → 5 tokens/);
    expect(lines[3]).toBe('■ success · finished');
    expect(out.text().match(/Storing/g)).toHaveLength(1);
  });

  it('without --verbose the streamed line is exactly the whole-text line: folded, cut at 240 with …', async () => {
    const words = fc.stringMatching(/^[a-zA-Z0-9.,“”é]{1,12}$/);
    const spaces = fc.constantFrom(' ', '  ', '\n', ' \n\t', '\n\n');
    const texts = fc
      .tuple(fc.array(fc.tuple(words, spaces), { minLength: 1, maxLength: 80 }), spaces, spaces)
      .map(([pairs, lead, tail]) => lead + pairs.map(([word, space]) => word + space).join('') + tail);
    await fc.assert(
      fc.asyncProperty(texts, fc.array(fc.nat(), { maxLength: 12 }), async (text, cuts) => {
        const out = collector();
        const renderer = await createProgressRenderer({ stream: out.stream, verbose: false, spinner: false });
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        let from = 0;
        for (const point of [...points, text.length]) {
          renderer.observer(delta(text.slice(from, point)));
          from = point;
        }
        renderer.observer(modelCall);
        renderer.observer(whole(text.trim()));
        const expected = plain(formatProgressEvent(whole(text.trim()), { verbose: false }) ?? '');
        expect(out.text().split('\n')[0]).toBe(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('with --verbose every line of the text shows, indented under the opening quote', async () => {
    const out = collector();
    const renderer = await createProgressRenderer({ stream: out.stream, verbose: true, spinner: false });
    renderer.observer(delta('\nPlan:\n- store'));
    renderer.observer(delta(' a1\n'));
    renderer.observer(delta('- check it\n\n'));
    renderer.observer(modelCall);
    expect(out.text().split('\n').slice(0, 4)).toEqual([
      '  “Plan:',
      '   - store a1',
      '   - check it”',
      expect.stringMatching(/^◆ model/),
    ]);
  });

  it('a text that did not stream (a model that cannot) is shown whole, after its model call', async () => {
    const out = collector();
    const renderer = await createProgressRenderer({ stream: out.stream, verbose: false, spinner: false });
    renderer.observer(delta('   ')); // whitespace only: nothing to show
    renderer.observer(modelCall);
    renderer.observer(whole('Stored a1.'));
    const lines = out.text().split('\n');
    expect(lines[0]).toMatch(/^◆ model/);
    expect(lines[1]).toBe('  “Stored a1.”');
  });

  it('texts of two runs streaming in turn each get their own quoted line', async () => {
    const out = collector();
    const renderer = await createProgressRenderer({ stream: out.stream, verbose: false, spinner: false });
    renderer.observer(delta('First '));
    renderer.observer({ type: 'model-text-delta', ...at, runId: 'run_other', delta: 'Second ' });
    renderer.observer(delta('again'));
    renderer.stop();
    expect(out.text().split('\n')).toEqual(['  “First”', '  “Second”', '  “again”', '']);
  });

  it('the spinner stops while text streams and starts again with the next line', async () => {
    // ora animates only on an interactive terminal, which CI=true denies: this test needs it.
    const ci = process.env.CI;
    delete process.env.CI;
    try {
      const out = collector(true);
      const renderer = await createProgressRenderer({ stream: out.stream, verbose: false });
      renderer.observer(start);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(out.text()).toContain('waiting for the model…');
      renderer.observer(delta('Storing '));
      const streamingFrom = out.raw().length;
      await new Promise((resolve) => setTimeout(resolve, 250)); // several spinner frames' time
      renderer.observer(delta('a1.'));
      const whileStreaming = out.raw().slice(streamingFrom);
      expect(plain(whileStreaming)).toBe(' a1.'); // no frame, no line erased
      renderer.observer(modelCall);
      await new Promise((resolve) => setTimeout(resolve, 200));
      renderer.stop();
      const after = out.text().slice(out.text().indexOf('”'));
      expect(after).toContain('checking the answer…');
      expect(out.text()).toContain('“Storing a1.”\n◆ model');
    } finally {
      if (ci === undefined) delete process.env.CI;
      else process.env.CI = ci;
    }
  });

  it('--events leaves the pieces out: the text comes whole in model-text', () => {
    const out = collector();
    const writer = eventsWriter(out.stream);
    for (const event of [start, delta('Storing '), delta('a1.'), modelCall, whole('Storing a1.')])
      writer(event);
    const types = out
      .raw()
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as RunEvent).type);
    expect(types).toEqual(['run-start', 'entry', 'model-text']);
  });

  // `script` (util-linux) gives the CLI a real pseudo-terminal, as a user's shell would.
  const script = ['/usr/bin/script', '/bin/script'].find((path) => existsSync(path));
  it.skipIf(!script)(
    'on a terminal, `tally code --replay` streams each step text into its quoted line; --quiet shows none (skipped without util-linux `script`)',
    async () => {
      const root = join(import.meta.dirname, '..', '..');
      const onTerminal = (extra: string[]) => {
        const site = join(tempDir('tally-stream-'), 'site');
        cpSync(join(root, 'demo', 'coder-sample', 'site'), site, { recursive: true });
        const command = [
          process.execPath,
          join(root, 'bin', 'tally.js'),
          'code',
          '--root',
          site,
          '--replay',
          join(root, 'demo', 'coder-sample', 'ui-task.cassette.json'),
          '--var',
          'PREVIEW_URL=http://127.0.0.1:9/',
          ...extra,
        ]
          .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
          .join(' ');
        return new Promise<string>((resolve, reject) =>
          execFile(
            script as string,
            ['-qec', `stty cols 120 rows 40; ${command}`, '/dev/null'],
            {
              env: {
                ...process.env,
                TALLY_LEDGER: '',
                TALLY_MODEL: '',
                NO_COLOR: '1',
                TERM: 'xterm',
                XDG_STATE_HOME: tempDir(),
              },
            },
            (error, stdout) => (error && !stdout ? reject(error) : resolve(plain(stdout))),
          ),
        );
      };
      const shown = await onTerminal([]);
      expect(shown).toMatch(
        / {2}“Status: app\.js looks up #count-button, [^”]*retrying with the suggested path app\.js\.”\r?\n◆ model cassette:ui-task\.cassette round 4/,
      );
      expect(shown).toMatch(/ {2}“Fixed\. app\.js looked up #count-button,[^”]{200,}…”/);
      const quiet = await onTerminal(['--quiet']);
      expect(quiet).not.toContain('“');
      // --quiet: the final reply and its change table only, none of the steps' narration.
      expect(quiet).not.toContain('Status: app.js looks up #count-button');
      expect(quiet).toContain('Fixed. app.js looked up #count-button');
      expect(quiet).toMatch(/app\.js +updated/);
    },
  );
});
