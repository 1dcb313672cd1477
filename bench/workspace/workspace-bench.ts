import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { invokeTool } from '../../src/core/invoke-tool.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { ProjectRoot } from '../../src/packs/workspace/project-root.js';
import { fsGrep } from '../../src/packs/workspace/tools/fs-grep.js';
import type { BenchRow } from '../measure.js';

const exec = promisify(execFile);
const REPO = join(import.meta.dirname, '..', '..');
const CALLS = 150;

async function connect(command: string, args: string[]): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command,
      args,
      stderr: 'ignore',
      env: { ...process.env, TALLY_LEDGER: '' } as Record<string, string>,
    }),
  );
  return client;
}

async function median(times: number, fn: (index: number) => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let index = 0; index < times; index++) {
    const started = performance.now();
    const result = (await fn(index)) as { isError?: boolean; content?: { text?: string }[] };
    if (result?.isError) throw new Error(`call failed: ${result.content?.[0]?.text}`);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}

/** The same client, the same files, the same operations: ours vs the official filesystem server. */
async function mcpLatency(dir: string): Promise<BenchRow[]> {
  const oursRoot = join(dir, 'ours');
  const theirsRoot = join(dir, 'theirs');
  for (const root of [oursRoot, theirsRoot]) {
    mkdirSync(join(root, 'src'), { recursive: true });
    for (let index = 0; index < 50; index++)
      writeFileSync(
        join(root, 'src', `file-${index}.ts`),
        `// marker ${index}\n${`export const value${index} = ${index};\n`.repeat(40)}`,
      );
  }
  const ours = await connect(process.execPath, [join(REPO, 'bin', 'tally.js'), 'mcp', '--root', oursRoot]);
  const theirs = await connect(process.execPath, [
    join(REPO, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'),
    theirsRoot,
  ]);
  const body = 'export const x = 1;\n'.repeat(200);
  const operations: {
    name: string;
    ours: (i: number) => Promise<unknown>;
    theirs: (i: number) => Promise<unknown>;
  }[] = [
    {
      name: 'read',
      ours: (i) => ours.callTool({ name: 'fs_read', arguments: { path: `src/file-${i % 50}.ts` } }),
      theirs: (i) =>
        theirs.callTool({
          name: 'read_text_file',
          arguments: { path: join(theirsRoot, 'src', `file-${i % 50}.ts`) },
        }),
    },
    {
      name: 'write',
      ours: (i) => ours.callTool({ name: 'fs_write', arguments: { path: `out/w-${i}.ts`, content: body } }),
      theirs: (i) =>
        theirs.callTool({
          name: 'write_file',
          arguments: { path: join(theirsRoot, `w-${i}.ts`), content: body },
        }),
    },
    {
      name: 'list (with sizes)',
      ours: () => ours.callTool({ name: 'fs_list', arguments: { path: 'src' } }),
      theirs: () =>
        theirs.callTool({ name: 'list_directory_with_sizes', arguments: { path: join(theirsRoot, 'src') } }),
    },
    {
      // Same work on both sides: find one exact line, replace it, write the file back.
      name: 'edit',
      ours: (i) =>
        ours.callTool({
          name: 'fs_edit',
          arguments: {
            path: `src/file-${i % 50}.ts`,
            oldString: `// marker ${i % 50}\n`,
            newString: `// marker ${i % 50}\n`,
          },
        }),
      theirs: (i) =>
        theirs.callTool({
          name: 'edit_file',
          arguments: {
            path: join(theirsRoot, 'src', `file-${i % 50}.ts`),
            edits: [{ oldText: `// marker ${i % 50}\n`, newText: `// marker ${i % 50}\n` }],
          },
        }),
    },
  ];
  const rows: BenchRow[] = [];
  try {
    for (const operation of operations) {
      await median(10, operation.ours); // warm-up
      await median(10, operation.theirs);
      const oursMs = await median(CALLS, operation.ours);
      const theirsMs = await median(CALLS, operation.theirs);
      const ratio = oursMs / theirsMs;
      rows.push({
        name: `MCP ${operation.name}: median ms (ours hashes + ledger)`,
        value: oursMs.toFixed(3),
        baseline: `${theirsMs.toFixed(3)} server-filesystem`,
        ratio: ratio.toFixed(2),
        target: '≤ 1.2',
        pass: ratio <= 1.2,
      });
    }
  } finally {
    await ours.close();
    await theirs.close();
  }
  return rows;
}

async function grepTree(dir: string): Promise<BenchRow[]> {
  const tree = join(dir, 'tree');
  for (let folder = 0; folder < 200; folder++) {
    const path = join(tree, `pkg-${folder}`, 'src');
    mkdirSync(path, { recursive: true });
    for (let file = 0; file < 100; file++) {
      const needle = (folder * 100 + file) % 97 === 0 ? 'const NEEDLE_VALUE = 42;\n' : '';
      writeFileSync(
        join(path, `module-${file}.ts`),
        `import { thing } from './other';\n${'export function work(a: number) { return a * 2; }\n'.repeat(20)}${needle}`,
      );
    }
  }
  const ledger = Ledger.open(join(dir, 'grep.db'));
  const recorder = ledger.startRun({ agent: 'bench', task: 'grep' });
  const tool = fsGrep({ root: await ProjectRoot.open(tree) });
  const ours = async () => {
    const record = await invokeTool(
      tool,
      { pattern: 'NEEDLE_VALUE', maxResults: 5000 },
      { recorder, failOpen: () => {} },
    );
    return (record.result as { count: number }).count;
  };
  const theirs = async () =>
    (await exec('grep', ['-rn', 'NEEDLE_VALUE', tree], { maxBuffer: 64 * 1024 * 1024 })).stdout
      .trim()
      .split('\n').length;
  const expected = await theirs();
  if ((await ours()) !== expected) throw new Error('fs_grep and grep -r disagree');
  const time = async (fn: () => Promise<unknown>) => {
    const samples: number[] = [];
    for (let index = 0; index < 5; index++) {
      const started = performance.now();
      await fn();
      samples.push(performance.now() - started);
    }
    return samples.sort((a, b) => a - b)[2] as number;
  };
  const oursMs = await time(ours);
  const grepMs = await time(theirs);
  ledger.close();
  const ratio = oursMs / grepMs;
  return [
    {
      name: `fs_grep over 20,000 files (${expected} matches), ms`,
      value: oursMs.toFixed(0),
      baseline: `${grepMs.toFixed(0)} grep -rn`,
      ratio: ratio.toFixed(2),
      target: '≤ 2',
      pass: ratio <= 2,
    },
  ];
}

export async function workspaceBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-bench-ws-'));
  try {
    return [...(await mcpLatency(dir)), ...(await grepTree(dir))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
