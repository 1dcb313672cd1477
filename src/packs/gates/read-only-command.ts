/**
 * Whether a shell command line only reads, decided FAIL-CLOSED: anything this module does not
 * positively recognise as read-only is a writer.
 *
 * Security: this guards a gate, not a sandbox — but a gate that a crafted command slips past is
 * no gate. So the grammar accepted is deliberately tiny: plain words and quoted strings, joined
 * by `|`, `||`, `&&`, `;` or newlines; each segment's first word must be on the allow-list below
 * and pass its argument check. Rejected outright: command or process substitution (`$(`, `` ` ``,
 * `<(`), any `$` expansion outside single quotes, subshells and groups (`(`, `{`), backslash
 * escapes, background `&`, environment assignments (`PAGER=… git log`), path-qualified commands
 * (`/bin/ls`), and every redirection except to `/dev/null` (`2>/dev/null`, `>/dev/null`, `2>&1`).
 * Pipes are fine only because every stage must itself be on the list (`| tee`, `| sh`, `| xargs`
 * are not).
 */
export type CommandVerdict = { readOnly: true } | { readOnly: false; why: string };

/** Longer commands are not worth parsing: a read-only probe is short. */
export const MAX_CLASSIFIED_COMMAND = 4096;

type ArgumentCheck = (args: string[]) => string | undefined;

const anyArguments: ArgumentCheck = () => undefined;

function refusing(...prefixes: string[]): ArgumentCheck {
  return (args) => {
    const bad = args.find((arg) => prefixes.some((prefix) => arg === prefix || arg.startsWith(prefix)));
    return bad ? `the option ${bad} can write or run programs` : undefined;
  };
}

// `sed` only as a line printer: `sed -n '10,20p' file`. Its `w`, `e` and `-i` are writers.
const sedCheck: ArgumentCheck = (args) => {
  const options = args.filter((arg) => arg.startsWith('-'));
  if (options.some((option) => !['-n', '-E', '-r'].includes(option)) || !options.includes('-n'))
    return 'sed is read-only here only as `sed -n "<lines>p" FILE`';
  const script = args.find((arg) => !arg.startsWith('-'));
  return script && /^(\d+|\$)(,(\d+|\$))?p$/.test(script)
    ? undefined
    : 'sed is read-only here only as `sed -n "<lines>p" FILE`';
};

const GIT_READERS = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'blame',
  'grep',
  'describe',
  'shortlog',
  'cat-file',
  'merge-base',
  'name-rev',
  'for-each-ref',
  'show-ref',
  'count-objects',
  'whatchanged',
  'version',
]);

// Subcommands that read with some arguments and write with others.
const GIT_READ_FORMS: Record<string, (args: string[]) => boolean> = {
  branch: (args) =>
    args.every((arg) => ['-a', '-r', '-v', '-vv', '--list', '-l', '--show-current', '--all'].includes(arg)),
  remote: (args) => args.every((arg) => arg === '-v' || arg === '--verbose'),
  tag: (args) => args[0] === '-l' || args[0] === '--list',
  stash: (args) => args[0] === 'list' || args[0] === 'show',
  reflog: (args) => args.length === 0 || args[0] === 'show',
  config: (args) => ['--get', '--get-all', '--get-regexp', '--list', '-l'].includes(args[0] ?? ''),
};

const gitCheck: ArgumentCheck = (args) => {
  let rest = args;
  // Global options that only choose what is shown or where: `git --no-pager log`, `git -C dir status`.
  while (rest[0] === '--no-pager' || rest[0] === '-C' || rest[0] === '-P')
    rest = rest.slice(rest[0] === '-C' ? 2 : 1);
  const [subcommand, ...subArgs] = rest;
  if (!subcommand) return 'git with no subcommand';
  // --output writes a file; -O/--open-files-in-pager and --ext-diff run other programs.
  const writer = subArgs.find((arg) => /^(--output|-O|--open-files-in-pager|--ext-diff|--exec)/.test(arg));
  if (writer) return `git ${subcommand} ${writer} can write or run programs`;
  if (GIT_READERS.has(subcommand)) return undefined;
  const form = GIT_READ_FORMS[subcommand];
  return form?.(subArgs)
    ? undefined
    : `git ${subcommand} ${subArgs.join(' ')} is not a known read-only form`.trimEnd();
};

const tallyCheck: ArgumentCheck = (args) => {
  const [command, sub] = args;
  if (command === 'records' && (sub === 'query' || sub === 'lint')) return undefined;
  if (command === 'digest' && sub === 'read') return undefined;
  if (command === 'scout' || command === 'runs' || command === 'stats') return undefined;
  return `tally ${command ?? ''} is not a read-only tally command`.trimEnd();
};

const SAFE: Record<string, ArgumentCheck> = {
  ls: anyArguments,
  pwd: anyArguments,
  cd: anyArguments,
  cat: anyArguments,
  head: anyArguments,
  tail: anyArguments,
  wc: anyArguments,
  grep: anyArguments,
  egrep: anyArguments,
  fgrep: anyArguments,
  cut: anyArguments,
  tr: anyArguments,
  nl: anyArguments,
  od: anyArguments,
  hexdump: anyArguments,
  cmp: anyArguments,
  diff: anyArguments,
  comm: anyArguments,
  column: anyArguments,
  basename: anyArguments,
  dirname: anyArguments,
  realpath: anyArguments,
  readlink: anyArguments,
  stat: anyArguments,
  du: anyArguments,
  df: anyArguments,
  echo: anyArguments,
  true: anyArguments,
  false: anyArguments,
  test: anyArguments,
  '[': anyArguments,
  which: anyArguments,
  type: anyArguments,
  whoami: anyArguments,
  uname: anyArguments,
  jq: anyArguments,
  md5sum: anyArguments,
  sha1sum: anyArguments,
  sha256sum: anyArguments,
  sha512sum: anyArguments,
  cksum: anyArguments,
  // Each of these has an option that writes a file or runs another program.
  sort: refusing('-o', '--output', '--compress-program'),
  tree: refusing('-o', '-R'),
  file: refusing('-C', '--compile'),
  rg: refusing('--pre'),
  find: refusing('-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fls'),
  date: (args) =>
    args.some(
      (arg) => arg === '-s' || arg.startsWith('--set') || (!arg.startsWith('-') && !arg.startsWith('+')),
    )
      ? 'date can set the clock with these arguments'
      : undefined,
  sed: sedCheck,
  git: gitCheck,
  tally: tallyCheck,
  npx: (args) => (args[0] === 'tally' ? tallyCheck(args.slice(1)) : 'npx runs packages'),
};

type Token = { word: string } | { operator: string };

/** Splits a command line into words and operators, or says why it will not. */
function tokenize(command: string): Token[] | string {
  const tokens: Token[] = [];
  let word = '';
  let inWord = false;
  const endWord = () => {
    if (inWord) tokens.push({ word });
    word = '';
    inWord = false;
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
      const close = command.indexOf('"', index + 1);
      if (close < 0) return 'an unterminated double quote';
      const inner = command.slice(index + 1, close);
      if (/[$`\\!]/.test(inner)) return 'an expansion or escape inside double quotes';
      word += inner;
      inWord = true;
      index = close;
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
      tokens.push({ operator: char });
      continue;
    }
    if ('$`\\<(){}\0'.includes(char))
      return `the character ${JSON.stringify(char)} (expansion, substitution, grouping or escape)`;
    if ((char === '#' || char === '!') && !inWord) return `a word starting with ${char}`;
    word += char;
    inWord = true;
  }
  endWord();
  return tokens;
}

export function classifyShellCommand(command: unknown): CommandVerdict {
  if (typeof command !== 'string') return { readOnly: false, why: 'the command is not a string' };
  if (command.length > MAX_CLASSIFIED_COMMAND)
    return { readOnly: false, why: `the command is longer than ${MAX_CLASSIFIED_COMMAND} characters` };
  const tokens = tokenize(command);
  if (typeof tokens === 'string') return { readOnly: false, why: `it contains ${tokens}` };
  const segments: string[][] = [[]];
  for (const token of tokens) {
    if ('operator' in token) {
      if ((segments.at(-1) as string[]).length === 0 && token.operator !== '\n' && token.operator !== ';')
        return { readOnly: false, why: `an empty command before ${token.operator}` };
      segments.push([]);
    } else (segments.at(-1) as string[]).push(token.word);
  }
  const commands = segments.filter((segment) => segment.length > 0);
  if (commands.length === 0) return { readOnly: false, why: 'the command is empty' };
  for (const [name, ...args] of commands as [string, ...string[]][]) {
    if (name.includes('='))
      return { readOnly: false, why: `an environment assignment (${name.split('=')[0]}=…)` };
    const check = Object.hasOwn(SAFE, name) ? SAFE[name] : undefined;
    if (!check) return { readOnly: false, why: `${name.slice(0, 40)} is not a known read-only command` };
    const why = check(args);
    if (why) return { readOnly: false, why };
  }
  return { readOnly: true };
}
