export interface UnknownToolMention {
  name: string;
  suggestion?: string;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] as number;
      row[j] = Math.min(current + 1, (row[j - 1] as number) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length] as number;
}

/**
 * Every tool name a system prompt mentions must be registered. A mention is a snake_case or
 * backticked identifier; it is an error when it is written as a call (`name(`), or when it
 * is within two edits of a registered tool (a misspelling). Other identifiers (field names
 * like `created_at`) pass; list deliberate ones in `allow`.
 */
export function lintPrompt(prompt: string, toolNames: string[], allow: string[] = []): UnknownToolMention[] {
  const known = new Set([...toolNames, ...allow]);
  const found = new Map<string, UnknownToolMention>();
  const pattern = /`([a-z][a-z0-9_]*)`|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b|\b([a-z][a-z0-9_]*)\(/g;
  for (const match of prompt.matchAll(pattern)) {
    const name = (match[1] ?? match[2] ?? match[3]) as string;
    if (known.has(name) || found.has(name)) continue;
    const calledLikeATool = prompt[(match.index ?? 0) + match[0].length] === '(' || match[0].endsWith('(');
    let suggestion: string | undefined;
    let best = Number.POSITIVE_INFINITY;
    for (const tool of toolNames) {
      const distance = editDistance(name, tool);
      if (distance < best) {
        best = distance;
        suggestion = tool;
      }
    }
    const misspelt = best <= 2 && name.length > 3;
    if (calledLikeATool || misspelt) {
      found.set(name, { name, ...(misspelt && suggestion ? { suggestion } : {}) });
    }
  }
  return [...found.values()];
}
