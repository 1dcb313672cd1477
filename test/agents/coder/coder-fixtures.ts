import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers.js';

/** A small real project: src/a.ts, src/b.ts, README.md. */
export function sampleProject(): string {
  const root = tempDir('tally-coder-');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n');
  writeFileSync(join(root, 'README.md'), '# Sample\n');
  return root;
}

/** The text of every message a model call was sent, by role (system, user, assistant, tool). */
export function promptTexts(
  prompt: readonly { role: string; content: unknown }[],
): { role: string; text: string }[] {
  return prompt.map((message) => ({
    role: message.role,
    text:
      typeof message.content === 'string'
        ? message.content
        : (message.content as { type: string; text?: string }[])
            .map((part) => (part.type === 'text' ? part.text : `<${part.type}>`))
            .join(''),
  }));
}
