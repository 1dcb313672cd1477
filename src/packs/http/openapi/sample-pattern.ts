const CLASSES: Record<string, string> = { d: '1', w: 'a', s: ' ', D: 'a', W: '-', S: 'a' };

/** The first character a `[...]` class admits (`[A-Z0-9]` → `A`), or undefined for negated classes. */
function classSample(body: string): string | undefined {
  if (body.startsWith('^')) return undefined;
  if (body.startsWith('\\')) return CLASSES[body[1] ?? ''] ?? body[1];
  return body[0];
}

/**
 * A string matching a simple pattern (literals, `\d`, `\w`, classes, `.`, quantifiers),
 * checked against the pattern itself; undefined when the pattern is beyond that (groups,
 * alternation, look-arounds) — the caller then falls back to the schema's example.
 */
export function samplePattern(pattern: string): string | undefined {
  if (/[()|]/.test(pattern)) return undefined;
  let out = '';
  let at = pattern.startsWith('^') ? 1 : 0;
  const end = pattern.endsWith('$') && !pattern.endsWith('\\$') ? pattern.length - 1 : pattern.length;
  while (at < end) {
    let atom: string | undefined;
    const char = pattern[at] as string;
    if (char === '\\') {
      const next = pattern[at + 1] ?? '';
      atom = CLASSES[next] ?? next;
      at += 2;
    } else if (char === '[') {
      const close = pattern.indexOf(']', at + 2);
      if (close < 0) return undefined;
      atom = classSample(pattern.slice(at + 1, close));
      at = close + 1;
    } else {
      atom = char === '.' ? 'a' : char;
      at++;
    }
    if (atom === undefined) return undefined;
    let times = 1;
    const quantifier = /^(?:\{(\d+)(?:,(\d*))?\}|[+*?])/.exec(pattern.slice(at, end));
    if (quantifier) {
      times = quantifier[1] !== undefined ? Number(quantifier[1]) : quantifier[0] === '+' ? 1 : 0;
      at += quantifier[0].length;
    }
    out += atom.repeat(times);
  }
  try {
    return new RegExp(pattern, 'u').test(out) ? out : undefined;
  } catch (error) {
    // A pattern JavaScript cannot compile: no sample, the example or a plain value is used.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
