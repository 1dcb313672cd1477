// Where one workspace call's server-side time goes, in process (no IPC): the tool alone, the
// call through invokeTool (validation, intents, redaction, the entry), and the ledger commits
// the MCP surface waits for (a write's or an edit's intent, then its entry).
// `node --import tsx bench/workspace/per-call-phases.ts` — for profiling, not a target.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFailOpen } from '../../src/core/fail-open.js';
import { invokeTool } from '../../src/core/invoke-tool.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import type { ToolDefinition } from '../../src/core/tool.js';
import { ProjectRoot } from '../../src/packs/workspace/project-root.js';
import { workspaceTools } from '../../src/packs/workspace/tools/index.js';

const CALLS = Number(process.env.WS_PHASE_CALLS ?? 1000);
const FILES = 50;
const dir = mkdtempSync(join(tmpdir(), 'tally-ws-phases-'));
try {
  // `src/` is edited through invokeTool, `bare/` by the tool alone: each keeps its own revisions.
  for (const folder of ['src', 'bare', 'out']) mkdirSync(join(dir, folder), { recursive: true });
  for (let file = 0; file < FILES; file++)
    for (const folder of ['src', 'bare'])
      writeFileSync(
        join(dir, folder, `file-${file}.ts`),
        `// marker ${file} rev 0\n${'export const v = 1;\n'.repeat(40)}`,
      );
  const root = await ProjectRoot.open(dir, { protect: [join(dir, '.tally')] });
  const tools = new Map<string, ToolDefinition>(workspaceTools({ root }).map((tool) => [tool.name, tool]));
  const ledger = Ledger.open(join(dir, '.tally', 'ledger.db'));
  // Every commit, the intent's too (the recorder commits through the ledger): counted and timed.
  const commits = { count: 0, cpu: 0 };
  const commit = ledger.commit.bind(ledger);
  ledger.commit = async (limitMs?: number) => {
    const before = process.cpuUsage();
    try {
      return await commit(limitMs);
    } finally {
      const used = process.cpuUsage(before);
      commits.count += 1;
      commits.cpu += used.user + used.system;
    }
  };
  const recorder = ledger.startRun({ agent: 'bench', task: 'phases' });
  const failOpen = createFailOpen({ logPath: join(dir, '.tally', 'fail-open.jsonl') });
  const revisions = { src: new Array<number>(FILES).fill(0), bare: new Array<number>(FILES).fill(0) };
  const edit = (folder: 'src' | 'bare', i: number) => {
    const file = i % FILES;
    const from = revisions[folder][file] as number;
    revisions[folder][file] = from + 1;
    return { path: `${folder}/file-${file}.ts`, oldString: `rev ${from}\n`, newString: `rev ${from + 1}\n` };
  };
  const inputs: Record<string, (i: number, folder: 'src' | 'bare') => unknown> = {
    fs_read: (i) => ({ path: `src/file-${i % FILES}.ts` }),
    fs_write: (i) => ({
      path: `out/w-${i % FILES}.ts`,
      content: `${'export const x = 1;\n'.repeat(200)}// ${i}\n`,
    }),
    fs_edit: (i, folder) => edit(folder, i),
    fs_list: () => ({ path: 'src' }),
  };
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const cpuMs = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;
  const perCall = (ms: number) => `${(ms / CALLS).toFixed(3)} ms`;
  for (const [name, input] of Object.entries(inputs)) {
    const tool = tools.get(name) as ToolDefinition;
    const execute: number[] = [];
    const invoke: number[] = [];
    const commitWall: number[] = [];
    // The tool alone (no intent is recorded: the context has no recorder).
    const context = { runId: recorder.runId, failOpen: () => {} };
    let executeCpu = 0;
    for (let i = 0; i < CALLS; i++) {
      const before = process.cpuUsage();
      const started = performance.now();
      await tool.execute(tool.inputSchema.parse(input(i, 'bare')), context);
      execute.push(performance.now() - started);
      executeCpu += cpuMs(process.cpuUsage(before));
    }
    // The call as the MCP surface makes it: invokeTool, then the commit it waits for.
    commits.count = 0;
    commits.cpu = 0;
    let callCpu = 0;
    for (let i = 0; i < CALLS; i++) {
      const before = process.cpuUsage();
      let started = performance.now();
      await invokeTool(tool, input(i, 'src'), { recorder, failOpen, source: 'mcp' });
      invoke.push(performance.now() - started);
      started = performance.now();
      await ledger.commit();
      commitWall.push(performance.now() - started);
      callCpu += cpuMs(process.cpuUsage(before));
    }
    const ledgerCpu = commits.cpu / 1000;
    process.stdout.write(
      `${name.padEnd(9)} wall: execute ${median(execute).toFixed(3)} ms, invokeTool ${median(invoke).toFixed(3)} ms, last commit ${median(commitWall).toFixed(3)} ms | CPU per call: tool alone ${perCall(executeCpu)}, whole call ${perCall(callCpu)}, of which ledger commits ${perCall(ledgerCpu)} (${(commits.count / CALLS).toFixed(1)} a call)\n`,
    );
  }
  ledger.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
