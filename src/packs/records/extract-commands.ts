const COMMAND_START =
  /^(npm|npx|node|pnpm|yarn|git|psql|docker|kubectl|make|curl|tally|python3?|pip|cargo|go|bash|sh|ssh|rsync|terraform|helm)\b/;

/**
 * Command lines a record states, verbatim: lines of fenced code blocks, and inline code spans
 * that start with a known command. The scout may only report a command found this way.
 */
export function extractCommands(markdown: string): string[] {
  const commands: string[] = [];
  let fenced = false;
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      const text = line.trim().replace(/^\$\s+/, '');
      if (text) commands.push(text);
      continue;
    }
    for (const match of line.matchAll(/`([^`\n]+)`/g)) {
      const span = (match[1] as string).trim();
      if (COMMAND_START.test(span) && span.includes(' ')) commands.push(span);
    }
  }
  return [...new Set(commands)];
}
