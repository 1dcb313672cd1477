import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { formatCodeTurn, formatTurnEvent } from '../../src/surfaces/cli/format-code-turn.js';
import { formatFishResult } from '../../src/surfaces/cli/format-fish.js';
import { formatTable, truncate } from '../../src/surfaces/cli/format-table.js';
import { formatProgressEvent } from '../../src/surfaces/cli/progress/format-progress-event.js';
import { streamedText } from '../../src/surfaces/cli/progress/streamed-text.js';
import { visibleControls, withVisibleControls } from '../../src/surfaces/visible-controls.js';
import { runTally, tempDir } from '../helpers.js';

/**
 * What a hostile model, app or teammate's ledger could put in a string to rewrite the user's
 * terminal: erase the line and return to its start, ring, a C1 CSI, a bidi override, DEL, NUL,
 * a form feed, an OSC 8 link.
 */
const HOSTILE = 'x\x1b[1A\x1b[2K\rStatus: success\x07\x9b2J\u202eevil\x7f\x00\x0c\x1b]8;;http://e.x\x07link';

/** Every character a terminal acts on, except newline and tab (and the CR of a CRLF). */
/** The colour sequences Tally's formatters add themselves (picocolors: bold, dim, red, green, yellow, cyan, gray and their resets). */
const OWN_COLOURS = /\x1b\[(?:1|2|22|31|32|33|36|39|90)m/g;

const ACTS_ON_TERMINAL = /\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe('visibleControls: text from outside never drives the terminal', () => {
  it('shows each control character as a stand-in and keeps everything else', () => {
    expect(visibleControls('a\x1b[2K\rb\x07')).toBe('a␛[2K␍b␇');
    expect(visibleControls('\x9b\u202e\x7f\x00')).toBe('<U+009B><U+202E>␡␀');
    expect(visibleControls('line one\r\nline two\n\tindented é 😀')).toBe(
      'line one\r\nline two\n\tindented é 😀',
    );
  });

  it('leaves no character a terminal acts on, for any text, and changes nothing twice', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.integer({ min: 0, max: 0x2070 }).map((code) => String.fromCharCode(code)),
          maxLength: 60,
        }),
        (text) => {
          const shown = visibleControls(text);
          expect(shown).not.toMatch(ACTS_ON_TERMINAL);
          expect(visibleControls(shown)).toBe(shown);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('copies a value only where a string (or key) changes', () => {
    const clean = { a: ['b', { c: 1 }], d: null };
    expect(withVisibleControls(clean)).toBe(clean);
    const dirty = { a: ['ok', 'x\x1b[2K'], 'k\x07': 2, same: { n: 1 } };
    const shown = withVisibleControls(dirty);
    expect(shown).toEqual({ a: ['ok', 'x␛[2K'], 'k␇': 2, same: { n: 1 } });
    expect(shown.same).toBe(dirty.same);
    expect(dirty.a[1]).toBe('x\x1b[2K');
  });
});

describe('every formatter shows hostile text instead of obeying it', () => {
  it('tables, cut text, a fish result, a coder turn, progress lines and streamed model text', () => {
    const shown = [
      formatTable(['A', 'B'], [[HOSTILE, HOSTILE]]),
      truncate(HOSTILE, 500),
      formatFishResult({
        runId: 'run_1',
        agent: 'fisherman',
        status: 'partial',
        endingReason: 'finished',
        summary: HOSTILE,
        verified: [{ target: `/s/${HOSTILE}`, type: HOSTILE, title: HOSTILE, via: HOSTILE }],
        dropped: [{ claim: { target: HOSTILE, type: HOSTILE }, why: HOSTILE }],
        duplicates: [{ why: HOSTILE }],
        failed: [{ type: HOSTILE, target: HOSTILE, reason: HOSTILE }],
        unmet: [HOSTILE],
        counts: { modelCalls: 0, toolCalls: 0, failures: 0 },
        contract: { source: 'model', description: HOSTILE, dropped: [HOSTILE] },
      } as never),
      formatCodeTurn({
        reply: HOSTILE,
        changes: [{ path: HOSTILE, change: 'created', bytes: 1, sha256: 'a' }],
        flags: [{ spelling: HOSTILE, said: 'created', truth: HOSTILE }],
        unmet: [HOSTILE],
        status: 'partial',
        chatId: 'c',
        turn: 1,
        runId: 'r',
      } as never),
      formatTurnEvent({ type: 'text', text: HOSTILE } as never),
      formatTurnEvent({
        type: 'tool-call',
        tool: 'fs_write',
        target: HOSTILE,
        outcome: 'rejected',
        error: { code: 'X', message: HOSTILE },
      } as never),
      formatProgressEvent({ type: 'model-text', runId: 'r', text: HOSTILE } as never, { verbose: true }),
      formatProgressEvent(
        {
          type: 'entry',
          runId: 'r',
          entry: {
            kind: 'tool_call',
            name: 'request',
            outcome: 'error',
            data: {
              tool: 'request',
              target: HOSTILE,
              input: { t: HOSTILE },
              error: { code: 'E', message: HOSTILE },
            },
          },
        } as never,
        { verbose: true },
      ),
    ];
    const text = streamedText({ verbose: true });
    shown.push(text.piece('r', HOSTILE), text.piece('r', `\r\x1b[2K${HOSTILE}`), text.close());
    for (const output of shown) {
      // Tally's own colours stay (picocolors turns them on where CI is set, or on a terminal);
      // nothing of the hostile text's sequences reaches the output raw.
      expect(output).not.toMatch(/\x1b\[1A|\x1b\[2K|\x1b\]8|\x9b/);
      // The words are all there, only the controls are stand-ins.
      expect((output ?? '').replace(OWN_COLOURS, '')).not.toMatch(ACTS_ON_TERMINAL);
    }
    expect(shown.join('\n')).toContain('Status: success');
    expect(shown[0]).toContain('x␛[1A␛[2K␍Status: success␇<U+009B>2J<U+202E>evil␡␀␌␛]8;;http://e.x␇link');
  });
});

describe('the CLI over a ledger with hostile text (a teammate’s, or a model’s words in it)', () => {
  function hostileLedger() {
    const dir = tempDir('tally-controls-');
    const path = join(dir, 'ledger.db');
    const ledger = Ledger.open(path);
    const run = ledger.startRun({ agent: 'fisherman', task: `make 2 suites ${HOSTILE}` });
    run.append({
      kind: 'tool_call',
      name: 'request',
      outcome: 'error',
      data: {
        tool: 'request',
        target: HOSTILE,
        input: { title: HOSTILE },
        result: { title: HOSTILE },
        error: { code: 'HTTP_500', message: HOSTILE },
      },
    });
    run.append({
      kind: 'claim',
      name: 'claim',
      outcome: 'dropped',
      data: { claim: { target: HOSTILE, type: HOSTILE }, why: HOSTILE },
    });
    run.append({
      kind: 'end',
      name: 'finished',
      outcome: 'finished',
      data: {
        reason: 'finished',
        status: 'partial',
        summary: `partial ${HOSTILE}`,
        verified: 0,
        dropped: 1,
        unmet: [HOSTILE],
        flags: [{ spelling: HOSTILE, said: 'created', truth: HOSTILE }],
      },
    });
    const runId = run.runId;
    return { dir, path, runId, done: () => ledger.close() };
  }

  it('runs, runs show (cut and --full), stats, check, the report file and an error naming a bad id', async () => {
    const { dir, path, runId, done } = hostileLedger();
    await done();
    const outputs = await Promise.all([
      runTally(['runs', '--ledger', path]),
      runTally(['runs', 'show', runId, '--ledger', path]),
      runTally(['runs', 'show', runId, '--full', '--ledger', path]),
      runTally(['stats', '--ledger', path]),
      runTally(['ledger', 'check', '--ledger', path]),
      // An argument cannot carry NUL; everything else of it can.
      runTally(['runs', 'show', `run_${HOSTILE.replace('\x00', '')}`, '--ledger', path]),
      runTally(['report', runId, '--ledger', path, '--out', join(dir, 'report.html')]),
    ]);
    for (const { stdout, stderr } of outputs) {
      expect(stdout).not.toMatch(ACTS_ON_TERMINAL);
      expect(stderr).not.toMatch(ACTS_ON_TERMINAL);
    }
    const [list, show, full] = outputs;
    // A table cell folds whitespace (the CR, the form feed) to a space; the rest is shown.
    expect(list?.stdout).toContain('make 2 suites x␛[1A␛[2K Status: success␇');
    expect(show?.stdout).toContain('status: partial (finished)');
    expect(full?.stdout).toContain('summary: partial x␛[1A␛[2K␍Status: success');
    expect(full?.stdout).toContain('unmet: x␛[1A');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).not.toMatch(ACTS_ON_TERMINAL);
  });
});
