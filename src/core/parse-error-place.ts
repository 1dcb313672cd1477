/** A run of string characters that need no check: no quote, backslash or control character. */
const PLAIN = /[^"\\\u0000-\u001f]*/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const SPACE = /[ \t\n\r]*/y;

/**
 * The offset of the first character that makes `text` invalid JSON (`text.length` when it ends
 * too early), or undefined when it is valid. Iterative, so a document nested thousands deep is
 * measured like any other; run only after JSON.parse has failed.
 */
export function jsonErrorOffset(text: string): number | undefined {
  let at = 0;
  const open: string[] = [];
  const take = (pattern: RegExp): boolean => {
    pattern.lastIndex = at;
    if (!pattern.test(text)) return false;
    at = pattern.lastIndex;
    return true;
  };
  /** Past one string, or false with `at` on the character that breaks it. */
  const string = (): boolean => {
    if (text[at] !== '"') return false;
    at += 1;
    for (;;) {
      take(PLAIN);
      if (text[at] === '"') {
        at += 1;
        return true;
      }
      if (text[at] !== '\\' || !take(ESCAPE)) return false;
    }
  };
  let expect: 'value' | 'firstValue' | 'key' | 'firstKey' | 'after' = 'value';
  for (;;) {
    take(SPACE);
    const char = text[at];
    if (expect === 'after') {
      const inside = open.at(-1);
      if (inside === undefined) return at === text.length ? undefined : at;
      if (char === ',') expect = inside === '{' ? 'key' : 'value';
      else if (char !== (inside === '{' ? '}' : ']')) return at;
      else open.pop();
      at += 1;
    } else if (expect === 'firstKey' && char === '}') {
      open.pop();
      at += 1;
      expect = 'after';
    } else if (expect === 'key' || expect === 'firstKey') {
      if (!string()) return at;
      take(SPACE);
      if (text[at] !== ':') return at;
      at += 1;
      expect = 'value';
    } else if (expect === 'firstValue' && char === ']') {
      open.pop();
      at += 1;
      expect = 'after';
    } else if (char === '{' || char === '[') {
      open.push(char);
      at += 1;
      expect = char === '{' ? 'firstKey' : 'firstValue';
    } else if (string() || (char !== '"' && (take(NUMBER) || take(LITERAL)))) expect = 'after';
    else return at;
  }
}

/** `line 3, column 17` for an offset into `text` (both counted from 1). */
export function lineColumnAt(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (
    let index = text.indexOf('\n');
    index !== -1 && index < offset;
    index = text.indexOf('\n', index + 1)
  ) {
    line += 1;
    lineStart = index + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}

/**
 * Security: where a parser stopped in a user's file, as `line L, column C` — never the text
 * around it. Parsers quote it (JSON.parse ~10 characters each side, YAML parsers whole lines),
 * and a user's file may hold tokens. Reads the position of a `yaml` error
 * (`linePos`), a js-yaml error (`mark`, or `(L:C)` in a message that wraps one), or, for a
 * JSON.parse failure, finds it in `text`. Undefined when none can be told.
 */
export function parseErrorPlace(error: unknown, text?: string): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { linePos, mark, message } = error as { linePos?: unknown; mark?: unknown; message?: unknown };
  const start = Array.isArray(linePos) ? (linePos[0] as { line?: unknown; col?: unknown }) : undefined;
  if (typeof start?.line === 'number' && typeof start.col === 'number')
    return `line ${start.line}, column ${start.col}`;
  const at = mark as { line?: unknown; column?: unknown } | undefined;
  if (typeof at?.line === 'number' && typeof at.column === 'number')
    return `line ${at.line + 1}, column ${at.column + 1}`;
  if (error instanceof SyntaxError && text !== undefined) {
    const offset = jsonErrorOffset(text);
    if (offset !== undefined)
      return `${lineColumnAt(text, offset)}${offset >= text.length ? ' (the text ends too early)' : ''}`;
  }
  const wrapped = typeof message === 'string' ? /\((\d+):(\d+)\)(?:\n|$)/.exec(message) : null;
  if (wrapped) return `line ${wrapped[1]}, column ${wrapped[2]}`;
  return undefined;
}

/** `not valid JSON at line 1, column 116`: what a refusal of a user's file says instead of the parser's words. */
export function parseFailure(what: string, error: unknown, text?: string): string {
  const place = parseErrorPlace(error, text);
  return `not valid ${what}${place ? ` at ${place}` : ''}`;
}
