// Where one workspace call's server-side time goes, in process (no IPC): the tool alone, the
// call through invokeTool (validation, redaction, the entry), and the commit the MCP surface
// waits for. `node --import tsx bench/workspace/per-call-phases.ts` — for profiling, not a target.
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
const dir = mkdtempSync(join(tmpdir(), 'tally-ws-phases-'));
try {
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'out'), { recursive: true });
  for (let file = 0; file < 50; file++)
    writeFileSync(
      join(dir, 'src', `file-${file}.ts`),
      `// marker ${file} rev 0\n${'export const v = 1;\n'.repeat(40)}`,
    );
  const root = await ProjectRoot.open(dir, { protect: [join(dir, '.tally')] });
  const tools = new Map<string, ToolDefinition>(workspaceTools({ root }).map((tool) => [tool.name, tool]));
  const ledger = Ledger.open(join(dir, '.tally', 'ledger.db'));
  const recorder = ledger.startRun({ agent: 'bench', task: 'phases' });
  const failOpen = createFailOpen({ logPath: join(dir, '.tally', 'fail-open.jsonl') });
  const revisions = new Array<number>(50).fill(0);
  const inputs: Record<string, (i: number) => unknown> = {
    fs_read: (i) => ({ path: `src/file-${i % 50}.ts` }),
    fs_write: (i) => ({
      path: `out/w-${i % 50}.ts`,
      content: `${'export const x = 1;\n'.repeat(200)}// ${i}\n`,
    }),
    fs_edit: (i) => {
      const file = i % 50;
      const from = revisions[file] as number;
      revisions[file] = from + 1;
      return { path: `src/file-${file}.ts`, oldString: `rev ${from}\n`, newString: `rev ${from + 1}\n` };
    },
    fs_list: () => ({ path: 'src' }),
  };
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  for (const [name, input] of Object.entries(inputs)) {
    const tool = tools.get(name) as ToolDefinition;
    const execute: number[] = [];
    const invoke: number[] = [];
    const commit: number[] = [];
    const context = { runId: recorder.runId, failOpen: () => {} };
    // CPU of the invoked calls and their commits (process.cpuUsage, µs): steadier than time on a shared machine.
    let cpu = 0;
    for (let i = 0; i < CALLS; i++) {
      if (name === 'fs_edit') {
        // execute alone would advance the revision the invoked edit expects: time it on reads.
        const cpuBefore = process.cpuUsage();
        let started = performance.now();
        await invokeTool(tool, input(i), { recorder, failOpen, source: 'mcp' });
        invoke.push(performance.now() - started);
        started = performance.now();
        await ledger.commit();
        commit.push(performance.now() - started);
        const used = process.cpuUsage(cpuBefore);
        cpu += used.user + used.system;
        continue;
      }
      let started = performance.now();
      await tool.execute(tool.inputSchema.parse(input(i)), context);
      execute.push(performance.now() - started);
      const cpuBefore = process.cpuUsage();
      started = performance.now();
      await invokeTool(tool, input(i), { recorder, failOpen, source: 'mcp' });
      invoke.push(performance.now() - started);
      started = performance.now();
      await ledger.commit();
      commit.push(performance.now() - started);
      const used = process.cpuUsage(cpuBefore);
      cpu += used.user + used.system;
    }
    process.stdout.write(
      `${name.padEnd(9)} execute ${execute.length ? median(execute).toFixed(3) : '  -  '} ms  invokeTool ${median(invoke).toFixed(3)} ms  commit ${median(commit).toFixed(3)} ms  CPU (invokeTool + commit) ${(cpu / CALLS / 1000).toFixed(3)} ms/call\n`,
    );
  }
  ledger.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
