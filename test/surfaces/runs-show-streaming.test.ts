import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { RUN_PAGE_SIZE, runEntryPages } from '../../src/core/ledger/run-pages.js';
import { formatRun } from '../../src/surfaces/cli/format-run.js';
import { renderReport } from '../../src/surfaces/report/render-report.js';
import { runTally, TALLY_BIN, tempDir } from '../helpers.js';

/**
 * `runs show` and `report` read a run a page at a time (issue 21: a big run must not cost its
 * size in memory). What they print must be what the whole-run formatters print: here over a run
 * longer than two pages, with effects created, changed and deleted across pages, an unanswered
 * intent, claims, a contract and an end — the summary parts come from entries on every page.
 */
function bigRun(dir: string, toolCalls: number): { ledgerPath: string; runId: string } {
  const ledgerPath = join(dir, '.tally', 'ledger.db');
  const ledger = Ledger.open(ledgerPath);
  const recorder = ledger.startRun({ agent: 'coder', task: 'touch many files', meta: {} });
  recorder.append({
    kind: 'contract',
    data: { source: 'task', description: 'files f0..f49 written', dropped: ['quickly'] },
  });
  for (let index = 0; index < toolCalls; index++) {
    const key = `src/f${index % 50}.ts`;
    const change = index < 50 ? 'created' : index % 997 === 0 ? 'deleted' : 'updated';
    recorder.append({
      kind: 'tool_call',
      name: 'fs_write',
      outcome: index % 101 === 0 ? 'error' : 'ok',
      data: {
        tool: 'fs_write',
        input: { path: key, content: `line ${index}\n`.repeat(index % 7) },
        evidence: { via: `fs_write ${key}`, effects: [{ kind: change, space: 'file', key }] },
        ...(index % 101 === 0 ? { error: { code: 'EIO', message: 'disk said no' } } : {}),
      },
    });
  }
  recorder.append({
    kind: 'intent',
    name: 'fs_write',
    data: {
      intentId: 'i-last',
      tool: 'fs_write',
      action: 'write',
      resources: [{ space: 'file', key: 'x.ts' }],
    },
  });
  recorder.append({
    kind: 'claim',
    outcome: 'verified',
    data: { claim: { target: 'src/f1.ts' }, via: 'fs_write' },
  });
  recorder.append({
    kind: 'claim',
    outcome: 'dropped',
    data: { claim: { target: 'src/zz.ts' }, why: 'no effect' },
  });
  recorder.append({
    kind: 'end',
    outcome: 'finished',
    data: { reason: 'finished', status: 'partial', summary: 'Wrote the files.', unmet: ['one write failed'] },
  });
  ledger.close();
  return { ledgerPath, runId: recorder.runId };
}

/**
 * A run over many pages that creates resources, then deletes the same ones pages later (net:
 * nothing, each with its whole history), creates some again and only reads others;
 * intents answered pages after they were declared, one answered before its intent, one never.
 */
function createThenDeleteRun(dir: string, pages: number): { ledgerPath: string; runId: string } {
  const ledgerPath = join(dir, '.tally', 'ledger.db');
  const ledger = Ledger.open(ledgerPath);
  const recorder = ledger.startRun({ agent: 'fisherman', task: 'seed then clean up', meta: {} });
  const calls = RUN_PAGE_SIZE * pages;
  const resources = Math.floor(calls / 3);
  const call = (index: number, kind: string, key: string, intents: string[] = []) =>
    recorder.append({
      kind: 'tool_call',
      name: 'http_request',
      outcome: 'ok',
      data: {
        tool: 'http_request',
        target: key,
        input: { method: kind === 'deleted' ? 'DELETE' : 'POST', body: { n: index } },
        ...(intents.length ? { intents } : {}),
        evidence: {
          via: `${kind} ${key}`,
          effects: [{ kind, space: 'http', key, type: 'item', observed: { status: 200, n: index } }],
        },
      },
    });
  recorder.append({
    kind: 'tool_call',
    name: 'http_request',
    outcome: 'ok',
    data: { tool: 'x', intents: ['early'] },
  });
  for (let index = 0; index < resources; index++) {
    if (index % 500 === 0)
      recorder.append({
        kind: 'intent',
        name: 'http_request',
        data: {
          intentId: `i${index}`,
          tool: 'http_request',
          action: 'create',
          resources: [{ space: 'http', key: `/items/${index}` }],
        },
      });
    call(index, 'created', `/items/${index}`);
  }
  recorder.append({
    kind: 'intent',
    name: 'http_request',
    data: { intentId: 'early', tool: 'http_request', action: 'create', resources: [] },
  });
  recorder.append({
    kind: 'intent',
    name: 'http_request',
    data: {
      intentId: 'never',
      tool: 'http_request',
      action: 'delete',
      resources: [{ space: 'http', key: '/items/1' }],
    },
  });
  for (let index = 0; index < resources; index++)
    call(
      index,
      index % 250 === 0 ? 'read' : 'deleted',
      `/items/${index}`,
      index % 500 === 0 ? [`i${index}`] : [],
    );
  for (let index = 0; index < resources; index += 97) call(index, 'created', `/items/${index}`);
  recorder.append({
    kind: 'claim',
    outcome: 'dropped',
    data: { claim: { target: '/items/3' }, why: 'deleted since' },
  });
  recorder.append({
    kind: 'end',
    outcome: 'finished',
    data: { reason: 'finished', status: 'success', summary: 'Clean.' },
  });
  ledger.close();
  return { ledgerPath, runId: recorder.runId };
}

describe('a run read a page at a time', () => {
  it('runEntryPages yields every entry once, in order, for sizes at and around the page size', async () => {
    const dir = tempDir();
    const ledger = Ledger.open(join(dir, 'ledger.db'));
    for (const count of [0, 1, 2, 3, 4, 7]) {
      const recorder = ledger.startRun({ agent: 'a', task: `${count}`, meta: {} });
      for (let index = 0; index < count; index++)
        recorder.append({ kind: 'guard', name: `g${index}`, data: {} });
      const seen: number[] = [];
      const sizes: number[] = [];
      for await (const page of runEntryPages(ledger, recorder.runId, 3)) {
        sizes.push(page.length);
        seen.push(...page.map((entry) => entry.seq));
      }
      expect(seen).toEqual(Array.from({ length: count }, (_, index) => index + 1));
      expect(sizes.every((size) => size > 0 && size <= 3)).toBe(true);
    }
    ledger.close();
  });

  it('`runs show`, `runs show --json` and `report` print what the whole-run formatters print', async () => {
    const dir = tempDir();
    const { ledgerPath, runId } = bigRun(dir, RUN_PAGE_SIZE * 2 + 321);
    const ledger = Ledger.open(ledgerPath, { readonly: true });
    const record = ledger.getRun(runId);
    ledger.close();
    expect(record.entries.length).toBeGreaterThan(RUN_PAGE_SIZE * 2);

    const shown = await runTally(['runs', 'show', runId], { cwd: dir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(`${stripVTControlCharacters(formatRun(record))}\n`);
    // The summary came from entries on every page: the deletes, the last intent, the end.
    expect(shown.stdout).toContain('unresolved intents (1):');
    expect(shown.stdout).toContain('status: partial (finished)');

    const json = await runTally(['runs', 'show', runId, '--json'], { cwd: dir });
    expect(json.stdout).toBe(`${JSON.stringify(record, null, 2)}\n`);

    const out = join(dir, 'report.html');
    const report = await runTally(['report', runId, '--out', out], { cwd: dir });
    expect(report.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(renderReport(record));
    // Written under a temporary name, then renamed: nothing else is left in the folder.
    expect(readdirSync(dir).filter((name) => name.includes('.tmp'))).toEqual([]);
  });

  it('over many pages, creates then deletes of the same resources: `runs show` and `report` print what the whole-run formatters print', async () => {
    const dir = tempDir();
    const { ledgerPath, runId } = createThenDeleteRun(dir, 7);
    const ledger = Ledger.open(ledgerPath, { readonly: true });
    const record = ledger.getRun(runId);
    ledger.close();
    expect(record.entries.length).toBeGreaterThan(RUN_PAGE_SIZE * 4);

    const shown = await runTally(['runs', 'show', runId], { cwd: dir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(`${stripVTControlCharacters(formatRun(record))}\n`);
    // Created then deleted: no net change; created again after that: the run's creation.
    const tail = shown.stdout.slice(shown.stdout.indexOf('\nnet effects:'));
    expect(tail).not.toContain('/items/3 ');
    expect(tail).not.toContain('deleted ');
    expect(tail).toContain('created  http /items/97 (item)');
    // Read, not deleted: still the run's creation.
    expect(tail).toContain('created  http /items/250 (item)');
    // Answered pages after it was declared, or before: resolved; never answered: listed.
    expect(shown.stdout).toContain('unresolved intents (1):');
    expect(shown.stdout).toContain('http_request intended to delete http /items/1');

    const out = join(dir, 'report.html');
    const report = await runTally(['report', runId, '--out', out], { cwd: dir });
    expect(report.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toBe(renderReport(record));
    expect(html).toContain('created #');
    expect(html).toContain('no net change');
  }, 60_000);

  it('a run with no entries: the same empty timeline, JSON and report as before', async () => {
    const dir = tempDir();
    const ledgerPath = join(dir, '.tally', 'ledger.db');
    const ledger = Ledger.open(ledgerPath);
    const runId = ledger.startRun({ agent: 'a', task: 'nothing yet', meta: {} }).runId;
    ledger.flush();
    const record = ledger.getRun(runId);
    ledger.close();
    const json = await runTally(['runs', 'show', runId, '--json'], { cwd: dir });
    expect(json.stdout).toBe(`${JSON.stringify(record, null, 2)}\n`);
    const shown = await runTally(['runs', 'show', runId], { cwd: dir });
    expect(shown.stdout).toBe(`${stripVTControlCharacters(formatRun(record))}\n`);
    expect(shown.stdout).toContain('the run has not ended');
  });

  it('a reader that stops early (`| head`) ends `runs show` quietly, with exit 0', async () => {
    const dir = tempDir();
    const { runId } = bigRun(dir, RUN_PAGE_SIZE * 3);
    const child = spawn(process.execPath, [TALLY_BIN, 'runs', 'show', runId], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', TALLY_LEDGER: '', XDG_STATE_HOME: tempDir('tally-state-') },
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const first = await new Promise<string>((resolve) =>
      child.stdout.once('data', (chunk) => resolve(String(chunk))),
    );
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(first).toContain(runId);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('report --out into a missing folder fails before reading the run and leaves no file', async () => {
    const dir = tempDir();
    const { runId } = bigRun(dir, 10);
    const out = join(dir, 'missing', 'r.html');
    const report = await runTally(['report', runId, '--out', out], { cwd: dir });
    expect(report.code).toBe(3);
    expect(report.stderr).toContain('(for r.html)');
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });
});
