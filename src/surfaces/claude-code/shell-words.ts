/**
 * Splits a shell command line into words and list operators, the way bash would for the tiny
 * grammar the read-only classifier accepts, or says why it will not (fail-closed).
 *
 * Accepted: plain words; single quotes; double quotes (with `\$`, `` \` ``, `\"`, `\\` and
 * `\<newline>` escapes, nothing expanded); backslash escapes outside quotes (`\(` is the word
 * `(`), `\<newline>` line continuations; the operators `|`, `||`, `&&`, `;` and newline; and
 * the redirections that write nowhere: `>/dev/null`, `2>/dev/null`, `&>/dev/null`, `2>&1`,
 * `>&2`. Refused: every other redirection (`>`, `>>`, `>|`, `&>`, `<`, here-docs and
 * here-strings), `$` expansions and `` ` `` substitutions, `(`/`)` subshells, `{`/`}` groups and
 * brace expansion, background `&`, `|&`, and comments.
 *
 * Each word records whether it starts with an unquoted glob character (`*`, `?`, `[`): such a
 * word may expand to a file name that starts with `-`, i.e. to an option.
 */
export type ShellWord = { word: string; glob: boolean };
export type ShellToken = ShellWord | { operator: string };

const DOUBLE_QUOTE_ESCAPES = '$`"\\\n';

/** Words and operators, or the reason the line is outside the accepted grammar. */
export function shellWords(command: string): ShellToken[] | string {
  const tokens: ShellToken[] = [];
  let word = '';
  let inWord = false;
  let glob = false;
  const endWord = () => {
    if (inWord) tokens.push({ word, glob });
    word = '';
    inWord = false;
    glob = false;
  };
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] as string;
    const next = command[index + 1];
    if (char === "'") {
      const close = command.indexOf("'", index + 1);
      if (close < 0) return 'an unterminated single quote';
      word += command.slice(index + 1, close);
      inWord = true;
      index = close;
      continue;
    }
    if (char === '"') {
      let at = index + 1;
      for (; at < command.length && command[at] !== '"'; at += 1) {
        const inner = command[at] as string;
        if (inner === '\\' && DOUBLE_QUOTE_ESCAPES.includes(command[at + 1] ?? '')) {
          at += 1;
          if (command[at] !== '\n') word += command[at];
          continue;
        }
        if (inner === '$' || inner === '`') return 'an expansion inside double quotes';
        word += inner;
      }
      if (at >= command.length) return 'an unterminated double quote';
      inWord = true;
      index = at;
      continue;
    }
    if (char === '\\') {
      if (next === undefined) return 'a backslash at the end';
      index += 1;
      if (next !== '\n') {
        word += next;
        inWord = true;
      }
      continue;
    }
    if (char === ' ' || char === '\t') {
      endWord();
      continue;
    }
    if (char === '>' || (char === '&' && next === '>')) {
      // Only a redirection to /dev/null (or 2>&1) is read-only; the fd digit is the word so far.
      if (inWord && !/^[0-9]$/.test(word)) return 'a redirection';
      const rest = command.slice(char === '&' ? index + 2 : index + 1);
      const match = /^(>?\s*\/dev\/null|&[12])(?=$|[\s;|&])/.exec(rest);
      if (!match) return 'a redirection to a file';
      word = '';
      inWord = false;
      index += (char === '&' ? 1 : 0) + match[0].length;
      continue;
    }
    if (char === '|' || char === ';' || char === '\n' || char === '&') {
      endWord();
      const pair = `${char}${next ?? ''}`;
      if (pair === '||' || pair === '&&') {
        tokens.push({ operator: pair });
        index += 1;
        continue;
      }
      if (char === '&') return 'a background job (&)';
      if (pair === '|&') return 'a pipe of stderr (|&)';
      if (pair === ';;' || pair === ';&') return `the operator ${pair}`;
      tokens.push({ operator: char });
      continue;
    }
    if ('$`<(){}\0\r'.includes(char))
      return `the character ${JSON.stringify(char)} (expansion, substitution, grouping or redirection)`;
    if (char === '#' && !inWord) return 'a comment (#)';
    if (word === '' && '*?['.includes(char)) glob = true;
    word += char;
    inWord = true;
  }
  endWord();
  return tokens;
}
