export interface ShellCommand {
  /** 1-based README line where the command starts, for messages. */
  line: number;
  /** The command as a shell runs it (continuation lines kept), its trailing comment removed. */
  script: string;
  /** The same on one line, whitespace collapsed: how the test's plan names it. */
  text: string;
  /** Variable assignments earlier in the same block (`R=test/fixtures/records`), in order. */
  setup: string[];
}

/** The line without a trailing `# comment`: a `#` that starts a word outside quotes. */
export function stripComment(line: string): string {
  let quote: string | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quote) {
      if (char === '\\' && quote === '"') index += 1;
      else if (char === quote) quote = undefined;
    } else if (char === '\\') index += 1;
    else if (char === '"' || char === "'") quote = char;
    else if (char === '#' && (index === 0 || /\s/.test(line[index - 1] as string)))
      return line.slice(0, index).trimEnd();
  }
  return line.trimEnd();
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S*$/;

/**
 * Every command of the README's ```sh, ```bash and ```console blocks (also those indented in
 * list items), in README order. Comment lines are skipped; `\` continuation lines are joined;
 * in a ```console block only `$ ` lines are commands (the rest is output). A bare variable
 * assignment is not a command of its own: it is the setup of the block's later commands.
 */
export function readmeShellCommands(markdown: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  const fence = /^( *)```(sh|bash|console)\n([\s\S]*?)^\1```/gm;
  for (const match of markdown.matchAll(fence)) {
    const indent = match[1] as string;
    const console = match[2] === 'console';
    const first = markdown.slice(0, match.index).split('\n').length + 1;
    const lines = (match[3] as string)
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
    const setup: string[] = [];
    for (let index = 0; index < lines.length; index += 1) {
      let raw = lines[index] as string;
      const line = first + index;
      if (console) {
        if (!raw.startsWith('$ ')) continue;
        raw = raw.slice(2);
      }
      const parts = [stripComment(raw)];
      while ((parts.at(-1) as string).endsWith('\\') && index + 1 < lines.length) {
        index += 1;
        parts.push(stripComment(lines[index] as string));
      }
      const script = parts.join('\n').trim();
      if (!script) continue;
      if (ASSIGNMENT.test(script)) {
        setup.push(script);
        continue;
      }
      const text = script.replace(/\\\n/g, ' ').replace(/\s+/g, ' ').trim();
      commands.push({ line, script, text, setup: [...setup] });
    }
  }
  return commands;
}
