import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { summarizeRun } from '../../../src/core/agent/summarize-run.js';
import { netEffects } from '../../../src/core/effects.js';
import { Ledger } from '../../../src/core/ledger/ledger.js';
import { openSqlite } from '../../../src/core/sqlite/open-sqlite.js';
import { formatRun } from '../../../src/surfaces/cli/format-run.js';
import { renderReport } from '../../../src/surfaces/report/render-report.js';
import { tempDir } from '../../helpers.js';

// No colour codes in what the assertions read.
process.env.NO_COLOR = '1';

/** A real ledger file with one run, then rows written by hand, as an older Tally or an editor would. */
function ledgerWithRows(rows: [kind: string, outcome: string | null, data: string][]): {
  path: string;
  runId: string;
} {
  const path = join(tempDir(), 'ledger.db');
  const ledger = Ledger.open(path);
  const runId = ledger.startRun({ agent: 'test', task: 'typed entries' }).runId;
  ledger.close();
  const database = openSqlite(path);
  const insert = database.prepare('INSERT INTO entries VALUES (?, ?, ?, ?, NULL, ?, ?)');
  database.transaction(() => {
    for (const [index, [kind, outcome, data]] of rows.entries())
      insert.run(runId, index + 1, '2026-01-10T10:00:00.000Z', kind, outcome, data);
  })();
  database.close();
  return { path, runId };
}

describe('ledger entries are checked against their kind where they leave the store', () => {
  it('reads an entry Tally writes today with its typed fields', () => {
    const path = join(tempDir(), 'ledger.db');
    const ledger = Ledger.open(path);
    const recorder = ledger.startRun({ agent: 'test', task: 'typed' });
    recorder.append({
      kind: 'tool_call',
      name: 'write',
      outcome: 'ok',
      data: {
        tool: 'write',
        target: 'a.txt',
        input: { path: 'a.txt' },
        intentKey: 'a.txt',
        evidence: { via: 'fs', effects: [{ kind: 'created', space: 'file', key: 'a.txt' }] },
        durationMs: 1.5,
      },
    });
    const entries = ledger.getRun(recorder.runId).entries;
    ledger.close();
    const entry = entries[0];
    if (entry?.kind !== 'tool_call') throw new Error(`expected a tool call, got ${entry?.kind}`);
    expect(entry.data.tool).toBe('write');
    expect(entry.data.evidence?.via).toBe('fs');
    expect([...netEffects(entries).keys()]).toStrictEqual(['file:a.txt']);
  });

  it('still reads an old-shaped entry: fields added later are absent, unknown fields are kept', () => {
    const { path, runId } = ledgerWithRows([
      // Before intentKey, durationMs and source existed; `legacy` is a field this Tally never wrote.
      ['tool_call', 'ok', '{"tool":"request","target":"GET /items","input":{},"legacy":true}'],
      ['model_call', null, '{}'],
      ['end', 'finished', '{"summary":"done"}'],
    ]);
    const ledger = Ledger.open(path);
    const record = ledger.getRun(runId);
    ledger.close();
    expect(record.entries.map((entry) => entry.kind)).toStrictEqual(['tool_call', 'model_call', 'end']);
    expect(record.entries[0]?.data).toStrictEqual({
      tool: 'request',
      target: 'GET /items',
      input: {},
      legacy: true,
    });
  });

  it('keeps a row that does not fit its kind as a malformed entry with its problems, never coerced', () => {
    const { path, runId } = ledgerWithRows([
      [
        'tool_call',
        'ok',
        '{"tool":"request","evidence":{"effects":[{"kind":"created","space":"http","key":"/a"}]}}',
      ],
      ['tool_call', 'ok', '{"tool":42,"target":"GET /b"}'],
      ['model_call', null, '{"inputTokens":"lots"}'],
      ['tool_call', 'ok', 'not json'],
      ['telepathy', null, '{}'],
    ]);
    const ledger = Ledger.open(path);
    const { entries } = ledger.getRun(runId);
    const problems = ledger.check();
    ledger.close();
    expect(entries.map((entry) => entry.kind)).toStrictEqual([
      'tool_call',
      'malformed',
      'malformed',
      'malformed',
      'malformed',
    ]);
    const malformed = entries.filter((entry) => entry.kind === 'malformed');
    expect(malformed.map((entry) => [entry.seq, entry.storedKind, entry.problems])).toStrictEqual([
      [2, 'tool_call', ['tool: Invalid input: expected string, received number']],
      [3, 'model_call', ['inputTokens: Invalid input: expected number, received string']],
      [4, 'tool_call', ['data is not JSON']],
      [5, 'telepathy', ['unknown kind "telepathy"']],
    ]);
    // The stored data stays as it was: the number is not turned into a string.
    expect(malformed[0]?.data).toStrictEqual({ tool: 42, target: 'GET /b' });
    // Readers skip what does not fit instead of tripping on it.
    expect([...netEffects(entries).keys()]).toStrictEqual(['http:/a']);
    expect(summarizeRun(entries, 'finished')).toContain('1 tool call: 1 succeeded');
    expect(
      renderReport({ run: { id: runId, agent: 'test', task: 't', startedAt: '', meta: {} }, entries }),
    ).toContain('request');
    const shown = formatRun({
      run: { id: runId, agent: 'test', task: 't', startedAt: '', meta: {} },
      entries,
    });
    expect(shown).toContain(
      'malformed entry #2 (tool_call): tool: Invalid input: expected string, received number',
    );
    expect(shown).toContain('malformed entry #5 (telepathy): unknown kind "telepathy"');
    // `tally ledger check` names each one that has a known kind (unknown kinds and non-JSON have their own checks).
    expect(
      problems
        .filter((problem) => problem.check === 'shape')
        .map((problem) => problem.message)
        .sort(),
    ).toStrictEqual([
      `entry ${runId}#2 (tool_call) does not fit its kind: tool: Invalid input: expected string, received number`,
      `entry ${runId}#3 (model_call) does not fit its kind: inputTokens: Invalid input: expected number, received string`,
    ]);
    expect(problems.map((problem) => problem.check)).toEqual(expect.arrayContaining(['kind', 'json']));
  });
});

describe('runs show leaves out what an entry does not record', () => {
  it('prints no "undefined" for a model call, a tool call or an end without their fields', () => {
    const { path, runId } = ledgerWithRows([
      ['model_call', null, '{"model":"openai:gpt-4.1-mini"}'],
      ['model_call', null, '{}'],
      ['tool_call', 'rejected', '{"tool":"nope","error":{"code":"UNKNOWN_TOOL"}}'],
      ['end', null, '{}'],
    ]);
    const ledger = Ledger.open(path);
    const record = ledger.getRun(runId);
    ledger.close();
    // Colours are on where CI is set (picocolors): compare the text a reader sees.
    const shown = stripVTControlCharacters(formatRun(record));
    expect(shown).not.toContain('undefined');
    const lines = shown.split('\n');
    expect(lines.find((line) => line.includes('openai:gpt-4.1-mini'))?.trimEnd()).toMatch(
      /model {2}openai:gpt-4\.1-mini$/,
    );
    expect(lines.find((line) => line.includes('nope'))).toMatch(/tool {3}nope rejected {2}UNKNOWN_TOOL$/);
    // An end with no status, reason or summary: no status line at all.
    expect(lines.some((line) => line.startsWith('status:'))).toBe(false);
    expect(lines.some((line) => line.startsWith('summary:'))).toBe(false);
  });

  it('prints the status with its reason when the end records them', () => {
    const { path, runId } = ledgerWithRows([
      ['end', 'finished', '{"reason":"finished","status":"success","summary":"All done."}'],
    ]);
    const ledger = Ledger.open(path);
    const shown = formatRun(ledger.getRun(runId));
    ledger.close();
    expect(shown).toContain('summary: All done.');
    expect(shown).toContain('status: success (finished)');
  });
});
