import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { invokeTool, type ToolCallRecord } from '../../../src/core/invoke-tool.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';
import { ProjectRoot } from '../../../src/packs/workspace/project-root.js';
import { workspaceTools } from '../../../src/packs/workspace/tools/index.js';
import type { WorkspaceContext } from '../../../src/packs/workspace/tools/workspace-context.js';
import { tempDir } from '../../helpers.js';

export const SECRET = 'TOP-SECRET-OUTSIDE';

/**
 * base/
 *   proj/            the project root
 *   proj-evil/       a sibling sharing the root's text prefix
 *   outside/         everything a hostile path wants to reach
 */
export function buildFixture() {
  const base = tempDir('tally-ws-');
  const root = join(base, 'proj');
  const outside = join(base, 'outside');
  const evil = join(base, 'proj-evil');
  for (const dir of [join(root, 'src', 'app'), outside, evil, join(root, 'docs')])
    mkdirSync(dir, { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
  writeFileSync(join(evil, 'secret.txt'), `${SECRET} evil\n`);
  writeFileSync(join(root, 'inside.txt'), 'inside secret? no, just text\n');
  writeFileSync(join(root, 'src', 'app', 'page.tsx'), 'export default function Page() {}\n');
  writeFileSync(join(root, '.gitignore'), 'dist/\n*.log\n');
  symlinkSync('inside.txt', join(root, 'link-inside'));
  symlinkSync('../outside/secret.txt', join(root, 'link-out'));
  symlinkSync('../outside', join(root, 'dir-link-out'));
  symlinkSync('chain2', join(root, 'chain1'));
  symlinkSync('../outside/secret.txt', join(root, 'chain2'));
  symlinkSync('../outside/new-file.txt', join(root, 'dangling-out'));
  symlinkSync(join(outside, 'abs-new.txt'), join(root, 'dangling-abs'));
  symlinkSync('loop2', join(root, 'loop1'));
  symlinkSync('loop1', join(root, 'loop2'));
  symlinkSync(join(base, 'proj-evil'), join(root, 'docs', 'evil-link'));
  return { base, root, outside, evil };
}

/** Everything outside the project, with content hashes: must never change. */
export function snapshotOutside(base: string): string {
  const lines: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const relative = `${rel}/${name}`;
      if (relative === '/proj') continue;
      const stats = lstatSync(path);
      if (stats.isSymbolicLink()) lines.push(`${relative} -> ${readlinkSync(path)}`);
      else if (stats.isDirectory()) {
        lines.push(`${relative}/`);
        walk(path, relative);
      } else lines.push(`${relative} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
    }
  };
  walk(base, '');
  return lines.join('\n');
}

export async function workspace(root: string, ledger: Ledger, extra: Partial<WorkspaceContext> = {}) {
  const context: WorkspaceContext = { root: await ProjectRoot.open(root), ...extra };
  const tools = new Map(workspaceTools(context).map((tool) => [tool.name, tool]));
  const recorder = ledger.startRun({ agent: 'workspace-test', task: 'path security' });
  const call = (name: string, input: unknown): Promise<ToolCallRecord> => {
    const tool = tools.get(name);
    if (!tool) throw new Error(`no tool ${name}`);
    return invokeTool(tool, input, { recorder, failOpen: () => {}, source: 'test' });
  };
  return { context, call, recorder };
}
