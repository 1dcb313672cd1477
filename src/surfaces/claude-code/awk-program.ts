/**
 * Whether an awk program can write or run programs: `system()`, pipes (`print | "sh"`,
 * `"cmd" | getline`), `@load`/`@include` and indirect calls, `print >`/`printf >`.
 *
 * Those words mean nothing inside a string or a regex literal, so the program is first cut into
 * code and literals the way awk's own lexer does (issue: a `"` inside a regex, `/"/`, was read as
 * the start of a string and hid the `system()` after it). Whether a `/` opens a regex or divides
 * depends on what precedes it; where that cannot be told from the text (`if (x) /re/` against
 * `(a)/2`), both readings are checked and both must be clean. awk compiles the whole program
 * before it runs any of it, so a reading that leaves a string or regex unclosed is one awk
 * refuses too, and is dropped. Bracket expressions whose end implementations disagree on
 * (`[/]`, `[\]]`) are refused.
 */

/** A reading of the program: its code, with every string and regex literal replaced by `""`. */
type Reading = { at: number; code: string };

/** More ambiguous slashes than this many readings: refused rather than explored. */
const MAX_READINGS = 16;

/** Keywords after which an operand (so a regex) comes: `print /x/`, `return /x/`. */
const OPERAND_AFTER = new Set(['print', 'printf', 'return', 'case', 'do', 'else', 'exit']);

type SlashRole = 'regex' | 'division' | 'either';

/** What a `/` is, given the code before it (awk's lexer asks its parser; this asks the text). */
function slashRole(code: string): SlashRole {
  const before = code.replace(/[ \t]+$/, '');
  const last = before.at(-1);
  if (last === undefined || last === '\n') return 'regex';
  if (before.endsWith('++') || before.endsWith('--')) return 'either';
  if (last === '"' || last === ']') return 'division';
  // `(a)/2` divides, `if (a) /re/` matches; `$/…` is nothing sensible.
  if (last === ')' || last === '$') return 'either';
  const word = /[A-Za-z0-9_.]+$/.exec(before)?.[0];
  if (word === undefined) return 'regex'; // after an operator or an opening bracket: an operand
  if (word === 'getline') return 'either'; // `getline /x/` vs `getline / 2`
  return OPERAND_AFTER.has(word) ? 'regex' : 'division';
}

type Scan = { end: number } | { lexical: string } | { refused: string };

/** A string literal from its opening quote: its end, or why awk would not compile it. */
function scanString(program: string, at: number): Scan {
  for (let index = at + 1; index < program.length; index += 1) {
    const char = program[index];
    if (char === '\\') index += 1;
    else if (char === '"') return { end: index + 1 };
    else if (char === '\n') break;
  }
  return { lexical: 'an awk string it cannot read' };
}

/**
 * A bracket expression inside a regex, from its `[`: its end. Only the plain forms every awk
 * reads alike (`[^]a-z]`, `[[:alpha:]]`); a `/`, `\` or other `[` inside is refused.
 */
function scanBracket(program: string, at: number): Scan {
  let index = at + 1;
  if (program[index] === '^') index += 1;
  if (program[index] === ']') index += 1;
  for (; index < program.length; index += 1) {
    const char = program[index] as string;
    if (char === ']') return { end: index + 1 };
    if (char === '[') {
      const named = /^\[:[a-z]+:\]/.exec(program.slice(index));
      if (!named) break;
      index += named[0].length - 1;
      continue;
    }
    if (char === '/' || char === '\\' || char === '\n') break;
  }
  return { refused: 'an awk regex bracket expression it cannot read' };
}

/** A regex literal from its opening slash: its end, or why it cannot be read. */
function scanRegex(program: string, at: number): Scan {
  for (let index = at + 1; index < program.length; index += 1) {
    const char = program[index];
    if (char === '\\') {
      // A continued line inside a regex: not every awk reads it alike.
      if (program[index + 1] === '\n') return { refused: 'an awk regex continued over a line' };
      index += 1;
    } else if (char === '[') {
      const bracket = scanBracket(program, index);
      if (!('end' in bracket)) return bracket;
      index = bracket.end - 1;
    } else if (char === '/') return { end: index + 1 };
    else if (char === '\n') break;
  }
  return { lexical: 'an awk regex it cannot read' };
}

/** Every reading of the program's code, or why it is refused. */
function awkReadings(program: string): string[] | { refused: string } {
  const pending: Reading[] = [{ at: 0, code: '' }];
  const readings: string[] = [];
  let explored = 1;
  let lexical: string | undefined;
  next: while (pending.length > 0) {
    let { at, code } = pending.pop() as Reading;
    while (at < program.length) {
      const char = program[at] as string;
      let scan: Scan | undefined;
      if (char === '"') scan = scanString(program, at);
      else if (char === '/') {
        const role = slashRole(code);
        if (role === 'either') {
          explored += 1;
          if (explored > MAX_READINGS) return { refused: 'an awk program with too many ambiguous slashes' };
          pending.push({ at: at + 1, code: `${code}/` });
        }
        if (role !== 'division') scan = scanRegex(program, at);
      } else if (char === '#') {
        // A comment, to the end of the line.
        const newline = program.indexOf('\n', at);
        at = newline < 0 ? program.length : newline;
        continue;
      } else if (char === '\\' && program[at + 1] === '\n') {
        // A continued line is one line.
        code += ' ';
        at += 2;
        continue;
      }
      if (scan === undefined) {
        code += char;
        at += 1;
        continue;
      }
      if ('refused' in scan) return scan;
      if ('lexical' in scan) {
        // awk would refuse to compile this reading: it runs nothing.
        lexical ??= scan.lexical;
        continue next;
      }
      code += '""';
      at = scan.end;
    }
    readings.push(code);
  }
  return readings.length > 0 ? readings : { refused: lexical ?? 'an awk program it cannot read' };
}

/** Tokens after which a newline does not end a statement (awk reads on: `a &&⏎ b`, `f(a,⏎ b)`). */
const CONTINUES = /(?:[,{(?:&|+\-*/%^!~=<>]|\bdo|\belse)$/;

/** Why one reading's code can write or run programs. */
function codeCheck(code: string): string | undefined {
  if (/\bsystem\b/.test(code)) return 'awk system(), which runs a program';
  if (code.includes('@')) return 'awk @load/@include or an indirect call';
  if (code.replaceAll('||', '').includes('|')) return 'an awk pipe, which runs a program';
  // A print statement that redirects: from `print`/`printf` to the end of the statement.
  const print = /\bprintf?\b/g;
  for (let match = print.exec(code); match; match = print.exec(code)) {
    for (let index = match.index + match[0].length; index < code.length; index += 1) {
      const char = code[index] as string;
      if (char === '>') return 'an awk print to a file (print >)';
      if (char === ';' || char === '}') break;
      if (char === '\n' && !CONTINUES.test(code.slice(match.index, index).replace(/[ \t]+$/, ''))) break;
    }
  }
  return undefined;
}

/** Why an awk program can write or run programs, or undefined when it only prints to stdout. */
export function awkProgramCheck(program: string): string | undefined {
  const readings = awkReadings(program);
  if ('refused' in readings) return readings.refused;
  for (const code of readings) {
    const why = codeCheck(code);
    if (why) return why;
  }
  return undefined;
}
