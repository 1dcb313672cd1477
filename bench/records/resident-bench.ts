// Records as an agent pays for them (issue 22): one `tally mcp --packs records` server, called
// over stdio by the official MCP SDK client, median per call. The server keeps its index fresh
// with a file-system watcher (watchRecordSource), so a call costs the query, not a check of
// every file. Each mode's answer is checked against the CLI's on the same corpus (same hit set),
// and an edit made on disk between two calls must be in the second answer.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { BenchRow } from '../measure.js';

const exec = promisify(execFile);
const REPO = join(import.meta.dirname, '..', '..');
const BIN = process.env.TALLY_BENCH_BIN ?? join(REPO, 'bin', 'tally.js');
const CALLS = Number(process.env.TALLY_BENCH_CALLS ?? 21);
const KEYWORD = 'migration rollback';

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

interface CallResult {
  structuredContent?: unknown;
  content?: unknown;
  isError?: boolean;
}

/** Per-call medians of the records tools on `root` (generated beforehand), with parity asserted. */
export async function residentRows(
  root: string,
  label: string,
  cache: string,
  target: number,
): Promise<BenchRow[]> {
  mkdirSync(cache, { recursive: true });
  const env = {
    ...process.env,
    TALLY_LEDGER: join(cache, 'ledger.db'),
    TALLY_RECORDS_STORES: '',
    TALLY_RECORDS_INDEX_CHECK: '',
    XDG_CACHE_HOME: cache,
  } as Record<string, string>;
  const cli = async (args: string[]) =>
    JSON.parse(
      (
        await exec(process.execPath, [BIN, 'records', 'query', '--root', root, ...args, '--json'], {
          env,
          maxBuffer: 1 << 28,
        })
      ).stdout,
    );
  const client = new Client({ name: 'tally-bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--root', root, '--packs', 'records'],
      env,
      stderr: 'ignore',
    }),
  );
  try {
    const call = async (name: string, args: Record<string, unknown>): Promise<CallResult> => {
      const result = (await client.callTool({ name, arguments: args })) as CallResult;
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      return result;
    };
    const pathsOf = (result: CallResult, key: 'records' | 'hits') =>
      ((result.structuredContent as Record<string, { path: string }[]>)[key] ?? []).map((item) => item.path);
    // Parity with the CLI (the same index code, another process): the same hit set, in order.
    const keyword = await call('records_query', { keyword: KEYWORD, limit: 200 });
    const cliKeyword = (await cli(['--keyword', KEYWORD, '--limit', '200'])) as { path: string }[];
    const kind = await call('records_query', { kind: 'failure-mode', limit: 200 });
    const cliKind = (await cli(['--kind', 'failure-mode', '--limit', '200'])) as { path: string }[];
    for (const [what, ours, theirs] of [
      ['keyword', pathsOf(keyword, 'records'), cliKeyword.map((row) => row.path)],
      ['kind', pathsOf(kind, 'records'), cliKind.map((row) => row.path)],
    ] as const)
      if (JSON.stringify(ours) !== JSON.stringify(theirs) || ours.length === 0)
        throw new Error(
          `${label}: MCP ${what} answered ${ours.length} paths, the CLI ${theirs.length}, or in another order`,
        );
    const catPaths = pathsOf(kind, 'records').slice(0, 20);
    const modes: [string, string, Record<string, unknown>][] = [
      ['keyword', 'records_query', { keyword: KEYWORD, limit: 20 }],
      ['kind', 'records_query', { kind: 'failure-mode', limit: 20 }],
      [`cat ${catPaths.length} paths`, 'records_cat', { paths: catPaths }],
      ['recall', 'records_recall', { terms: 'migration', limit: 10 }],
    ];
    const times = new Map<string, number[]>(modes.map(([name]) => [name, []]));
    for (let round = 0; round < CALLS; round++)
      for (const [name, tool, args] of modes) {
        const started = performance.now();
        await call(tool, args);
        times.get(name)?.push(performance.now() - started);
      }
    // An in-place edit between two calls is in the second answer.
    const edited = join(root, catPaths[0] as string);
    const before = readFileSync(edited, 'utf8');
    writeFileSync(edited, before.replace(/^keywords: \[/m, 'keywords: [zyzzyva, '));
    const seen = pathsOf(await call('records_query', { keyword: 'zyzzyva' }), 'records');
    writeFileSync(edited, before);
    if (!seen.includes(catPaths[0] as string))
      throw new Error(`${label}: an edit on disk was not in the next call's answer`);
    return [
      ...modes.map(([name]) => {
        const ms = median(times.get(name) as number[]);
        return {
          name: `resident (tally mcp, one server), ${label}: ${name}, median of ${CALLS} calls`,
          value: `${ms.toFixed(1)} ms`,
          target: `≤ ${target} ms`,
          pass: ms <= target,
        };
      }),
      {
        name: `resident, ${label}: same hit set as the CLI; an edit on disk seen by the next call`,
        value: 'asserted',
        pass: true,
      },
    ];
  } finally {
    await client.close();
  }
}
