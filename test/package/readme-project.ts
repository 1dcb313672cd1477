import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const REPO = join(import.meta.dirname, '..', '..');

export interface ReadmeBlock {
  /** 1-based line of the opening fence, for messages. */
  line: number;
  code: string;
}

/**
 * The README's ```ts blocks (also those indented in list items), dedented. A block whose
 * first line is `// …continues the example above` is joined to the one before it, as a
 * reader would run them.
 */
export function readmeTsBlocks(markdown: string): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  const fence = /^( *)```ts\n([\s\S]*?)^\1```/gm;
  for (const match of markdown.matchAll(fence)) {
    const indent = match[1] as string;
    const code = (match[2] as string)
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n');
    const line = markdown.slice(0, match.index).split('\n').length;
    const previous = blocks.at(-1);
    if (code.startsWith('// …continues the example above') && previous) previous.code += `\n${code}`;
    else blocks.push({ line, code });
  }
  return blocks;
}

/**
 * A project outside the repository that sees `tally-harness` as an installed package (a
 * symlink to this checkout, resolved through package.json `exports` to dist/) and the
 * repository's own node_modules for everything else (zod, the MCP SDK, @types/node).
 */
export function readmeProject(dir: string, files: Record<string, string>): void {
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(join(REPO, 'node_modules'))) {
    if (entry.startsWith('.')) continue;
    symlinkSync(join(REPO, 'node_modules', entry), join(modules, entry));
  }
  symlinkSync(REPO, join(modules, 'tally-harness'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'readme-check', type: 'module', private: true }),
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023'],
        types: ['node'],
        strict: true,
        skipLibCheck: true,
        outDir: 'out',
      },
      include: Object.keys(files),
    }),
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

export const packageName = (): string =>
  (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { name: string }).name;
