/**
 * Whether a shell command line only reads, decided by ALLOW-LIST and FAIL-CLOSED: anything this
 * module does not positively recognise as read-only is a writer.
 *
 * Security: this guards a gate, not a sandbox — but a gate that a crafted command slips past is
 * no gate. So:
 * - the accepted shell grammar is tiny (`shell-words.ts`): words, quotes, backslash escapes,
 *   `|`, `||`, `&&`, `;`, newlines, and redirections to `/dev/null` only; no expansions,
 *   substitutions, subshells, groups, background jobs, environment assignments;
 * - every command of a pipeline or list must be on the allow-list below, called by its bare name;
 * - each allowed command has an allow-list of its OPTIONS (`command-options.ts`), parsed the
 *   way the tool parses them: long options after unique-prefix expansion where the tool does it
 *   (`sort --outp=x` is `--output`), combined short flags split (`date -us@0` is `-u -s @0`),
 *   values attached or separate. An unknown option is a writer; so is an option known to write
 *   or run programs;
 * - a word starting with an unquoted glob (`*`, `?`, `[`) may expand to an option, so it is
 *   refused for every command that has options at all;
 * - commands with little languages read those too (`script-checks.ts`: sed, awk, find) and git
 *   has its own subcommand table (`git-command.ts`).
 */
import { hasOption, type OptionSpec, type ParsedArguments, parseOptions } from './command-options.js';
import { gitCheck } from './git-command.js';
import { awkProgramCheck, findCheck, sedScriptCheck } from './script-checks.js';
import { type ShellWord, shellWords } from './shell-words.js';

export type CommandVerdict = { readOnly: true } | { readOnly: false; why: string };

/** Longer commands are not worth parsing: a read-only probe is short. */
export const MAX_CLASSIFIED_COMMAND = 4096;

type Check = (words: ShellWord[]) => string | undefined;

/** An allow-listed command: its options, then an optional look at what it was given. */
function options(spec: OptionSpec, then?: (parsed: ParsedArguments) => string | undefined): Check {
  return (words) => {
    const parsed = parseOptions(spec, words);
    if ('refused' in parsed) return parsed.refused;
    return then?.(parsed);
  };
}

/** Commands that take no options at all and treat every argument as data (`echo`, `true`). */
const anyWords: Check = () => undefined;

/**
 * bash evaluates the subscript of a variable name it is handed (`a[$(cmd)]`), so a builtin word
 * that NAMES a variable runs whatever that subscript holds, quoted or not. `test`/`[` take one
 * with `-v` (is it set) and `-R` (is it a nameref); every other word of theirs is data.
 */
const testCheck: Check = (words) => {
  const naming = words.find((word) => word.word === '-v' || word.word === '-R');
  return naming ? `${naming.word}, which names a shell variable (bash evaluates its subscript)` : undefined;
};

// `printf -v NAME` assigns to a variable (its subscript evaluated, as above). Options come first;
// a format that starts with `-` needs `--` before it.
const printfCheck: Check = (words) => {
  const first = words[0];
  if (!first || first.word === '--' || !first.word.startsWith('-')) return undefined;
  return first.word.startsWith('-v')
    ? '-v, which assigns to a shell variable (bash evaluates its subscript)'
    : `the option ${first.word.slice(0, 40)}`;
};

const GREP: OptionSpec = {
  globs: true,
  flags: 'EFGPiywxvcLlmoqsbHhnTZzaIrRUV',
  values: 'efmABCdD',
  long:
    'extended-regexp fixed-strings basic-regexp perl-regexp regexp= file= ignore-case no-ignore-case ' +
    'word-regexp line-regexp null-data no-messages invert-match version help max-count= byte-offset ' +
    'line-number no-line-number line-buffered with-filename no-filename label= only-matching quiet ' +
    'silent binary-files= text directories= devices= recursive dereference-recursive include= ' +
    'exclude= exclude-from= exclude-dir= files-without-match files-with-matches count initial-tab ' +
    'null before-context= after-context= context= color? colour? binary',
  numeric: true,
  abbreviate: true,
};

const RG: OptionSpec = {
  flags: 'abcFHhiIlLnNoOpqsSuUvVwxz0.',
  values: 'ABCdeEfgjmMrtT',
  long:
    'after-context= before-context= context= regexp= encoding= file= glob= iglob= threads= max-count= ' +
    'max-columns= replace= type= type-not= type-add= type-clear= max-depth= maxdepth= sort= sortr= ' +
    'colors= color= context-separator= field-match-separator= field-context-separator= ' +
    'path-separator= max-filesize= dfa-size-limit= regex-size-limit= engine= ignore-file= ' +
    'hyperlink-format= files files-with-matches files-without-match count count-matches json ' +
    'vimgrep heading no-heading line-number no-line-number column no-column hidden no-hidden ' +
    'no-ignore no-ignore-vcs no-ignore-dot no-ignore-parent no-ignore-global no-ignore-exclude ' +
    'no-ignore-files no-ignore-messages follow no-follow fixed-strings no-fixed-strings ' +
    'ignore-case smart-case case-sensitive word-regexp line-regexp invert-match only-matching ' +
    'multiline no-multiline multiline-dotall pcre2 no-pcre2 auto-hybrid-regex text no-text binary ' +
    'no-binary null null-data stats trim no-trim type-list passthru passthrough sort-files debug ' +
    'trace quiet unrestricted with-filename no-filename no-messages no-config no-require-git crlf ' +
    'byte-offset pretty max-columns-preview ignore-file-case-insensitive one-file-system ' +
    'no-unicode include-zero glob-case-insensitive search-zip no-search-zip block-buffered ' +
    'line-buffered help version files-with-matches pcre2-version',
  // --pre runs a program on every file; --hostname-bin runs one to learn the host name.
  write: '--pre= --pre-glob= --hostname-bin=',
};

const SORT: OptionSpec = {
  flags: 'bdfgiMhnRrVcCmsuz',
  values: 'ktS',
  long:
    'ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting ' +
    'month-sort human-numeric-sort numeric-sort random-sort random-source= reverse sort= ' +
    'version-sort batch-size= check? merge key= stable buffer-size= field-separator= parallel= ' +
    'unique zero-terminated files0-from= debug help version',
  // -o writes the result; --compress-program runs a program; -T writes temporary files there.
  write: '-o -T --output= --compress-program= --temporary-directory=',
  abbreviate: true,
};

const DATE: OptionSpec = {
  flags: 'uR',
  values: 'dfr',
  optional: 'I',
  long:
    'date= file= iso-8601? rfc-email rfc-822 rfc-2822 rfc-3339= reference= utc universal debug ' +
    'resolution help version',
  write: '-s --set=',
  abbreviate: true,
};

const SED: OptionSpec = {
  flags: 'nErsuz',
  values: 'el',
  long:
    'quiet silent regexp-extended separate unbuffered null-data posix debug sandbox expression= ' +
    'line-length= help version',
  // -i edits files in place; -f reads a script this check cannot see.
  write: '-i -f --in-place? --file= --follow-symlinks',
  abbreviate: true,
};

const AWK: OptionSpec = {
  values: 'Fv',
  long: 'field-separator= assign= version',
  // -f/-e/-i/-l read program text this check cannot see or load extensions; -d, -p, -o write files.
  write:
    '-f -e -i -l -d -p -o -E --file= --source= --include= --load= --exec= --dump-variables? --profile? --pretty-print?',
  abbreviate: true,
};

const TAR: OptionSpec = {
  flags: 'tvzjJaOBiwkUmpPhS',
  values: 'fCbTXH',
  long:
    'list file= verbose gzip gunzip ungzip bzip2 xz lzma lzip lzop zstd auto-compress wildcards ' +
    'no-wildcards wildcards-match-slash no-wildcards-match-slash exclude= exclude-from= anchored ' +
    'no-anchored ignore-case no-ignore-case numeric-owner full-time utc quoting-style= ' +
    'show-transformed-names null no-null force-local directory= files-from= blocking-factor= ' +
    'read-full-records ignore-zeros recursion no-recursion verbatim-files-from ' +
    'no-verbatim-files-from occurrence? format= show-defaults help version totals? strip-components= ' +
    'transform= xform= no-auto-compress seek no-seek',
  write:
    '-c -x -r -u -A -d -I -F -g -G -M -L -V -N -K -W --create --extract --get --append --update ' +
    '--catenate --concatenate --delete --diff --compare --test-label --use-compress-program= ' +
    '--info-script= --new-volume-script= --to-command= --checkpoint-action= --rsh-command= ' +
    '--rmt-command= --listed-incremental= --incremental --index-file= --remove-files --to-stdout ' +
    '--overwrite --multi-volume --label= --volno-file= --backup? --suffix= --after-date= --newer=',
  abbreviate: true,
};

// `tar tvf archive`: the traditional first word is a cluster whose value letters take the next words.
// (A glob word starts with `*`, `?` or `[`, so it is never such a cluster.)
function tarWords(words: ShellWord[]): ShellWord[] {
  const first = words[0];
  if (!first || !/^[A-Za-z]+$/.test(first.word)) return words;
  const out: ShellWord[] = [];
  const rest = words.slice(1);
  for (const letter of first.word) {
    out.push({ word: `-${letter}`, glob: false });
    if ((TAR.values as string).includes(letter) && rest.length > 0) out.push(rest.shift() as ShellWord);
  }
  return [...out, ...rest];
}

const tarCheck: Check = (words) => {
  const parsed = parseOptions(TAR, tarWords(words));
  if ('refused' in parsed) return parsed.refused;
  if (!hasOption(parsed, '-t', '--list')) return 'tar is read-only here only with -t/--list';
  const archive = parsed.options.find((option) => option.name === '-f' || option.name === '--file');
  // `host:file` is fetched through rsh/ssh unless --force-local. (-f and --file always hold a value.)
  if (archive && (archive.value as string).includes(':') && !hasOption(parsed, '--force-local'))
    return 'a tar archive name with a colon (a remote archive)';
  return undefined;
};

// sed and awk have options that write, so the option parser has already refused any glob word:
// the script or program seen here is the text as typed.
const sedCheck = options(SED, (parsed) => {
  const scripts = parsed.options
    .filter((option) => option.name === '-e' || option.name === '--expression')
    .map((option) => option.value as string);
  if (scripts.length === 0) {
    const first = parsed.operands[0];
    if (!first) return 'sed with no script';
    scripts.push(first.word);
  }
  for (const script of scripts) {
    const why = sedScriptCheck(script);
    if (why) return why;
  }
  return undefined;
});

const awkCheck = options(AWK, (parsed) => {
  const program = parsed.operands[0];
  if (!program) return 'awk with no program';
  return awkProgramCheck(program.word);
});

// A date operand other than +FORMAT sets the clock (`date 010100002020`).
const dateCheck = options(DATE, (parsed) => {
  const setter = parsed.operands.find((operand) => !operand.word.startsWith('+'));
  return setter ? `the date operand ${setter.word.slice(0, 40)}, which sets the clock` : undefined;
});

// `uniq IN OUT` writes OUT.
const uniqCheck = options(
  {
    flags: 'cdDuiz',
    values: 'fsw',
    long:
      'count repeated all-repeated? unique ignore-case skip-fields= skip-chars= check-chars= ' +
      'zero-terminated group? help version',
    numeric: true,
    abbreviate: true,
  },
  (parsed) => (parsed.operands.length > 1 ? 'uniq with an output file' : undefined),
);

// Tally's own read-only commands (commander matches long options exactly).
const TALLY_FORMS: Record<string, string> = {
  'records query':
    'root= keyword= kind= id= links-to= project= limit= full cat= recall= list-stores no-index json',
  'records lint': 'root= json',
  scout: 'root= session= model= json',
  runs: 'limit= agent= json',
  'runs show': 'json full',
  stats: 'since= json',
  'digest read': 'session= root= json',
};
const TALLY_GLOBAL = 'json quiet verbose debug events help version';

const tallyCheck: Check = (words) => {
  const [command, sub] = words.filter((word) => !word.word.startsWith('-')).map((word) => word.word);
  if (command === undefined) return 'tally with no command';
  const form = [`${command} ${sub}`, command].find((key) => Object.hasOwn(TALLY_FORMS, key));
  if (form === undefined) return `tally ${command} is not a read-only tally command`;
  const parsed = parseOptions({ long: `${TALLY_FORMS[form]} ${TALLY_GLOBAL}`, flags: 'hV' }, words);
  return 'refused' in parsed ? `tally ${form}: ${parsed.refused}` : undefined;
};

// `npx --no tally …` runs the project's own CLI and nothing else. Without `--no` (or
// `--no-install`), outside a project that has Tally, npx fetches and runs the unrelated public
// `tally` package: code this check cannot see (the plugin never calls npx; its launcher is
// `bin/tally.js`). Any other package, and npx's other options, run code it cannot see either.
const npxCheck: Check = (words) => {
  let at = 0;
  while (words[at]?.word === '--no' || words[at]?.word === '--no-install') at += 1;
  if (words[at]?.word !== 'tally') return 'npx runs a package this check cannot see';
  if (at === 0)
    return "npx tally without --no may fetch and run an unrelated public package named tally: use npx --no tally, or the plugin's bin/tally.js";
  return tallyCheck(words.slice(at + 1));
};

const LS: OptionSpec = {
  globs: true,
  flags: 'aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1',
  values: 'ITw',
  long:
    'all almost-all author escape block-size= ignore-backups color? directory dired classify? ' +
    'file-type format= full-time group-directories-first no-group human-readable si ' +
    'dereference-command-line dereference-command-line-symlink-to-dir hide= hyperlink? ' +
    'indicator-style= inode ignore= kibibytes dereference numeric-uid-gid literal hide-control-chars ' +
    'show-control-chars quote-name quoting-style= reverse recursive size sort= time= time-style= ' +
    'tabsize= width= context zero help version',
  abbreviate: true,
};

const HEAD_TAIL: OptionSpec = {
  globs: true,
  flags: 'qvzfF',
  values: 'cns',
  long:
    'bytes= lines= quiet silent verbose zero-terminated follow? retry max-unchanged-stats= pid= ' +
    'sleep-interval= help version',
  numeric: true,
  abbreviate: true,
};

const SUMS: OptionSpec = {
  globs: true,
  flags: 'bctwz',
  long: 'binary check tag text ignore-missing quiet status strict warn zero help version',
  abbreviate: true,
};

/** The allow-list: each command with its option allow-list (or its own check). */
const SAFE: Record<string, Check> = {
  ls: options(LS),
  pwd: options({ flags: 'LP' }),
  cd: options({ flags: 'LPe@' }),
  cat: options({
    globs: true,
    flags: 'AbeEnstTuv',
    long: 'show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting help version',
    abbreviate: true,
  }),
  head: options(HEAD_TAIL),
  tail: options(HEAD_TAIL),
  wc: options({
    globs: true,
    flags: 'cmlLw',
    long: 'bytes chars lines files0-from= max-line-length words total= help version',
    abbreviate: true,
  }),
  grep: options(GREP),
  egrep: options(GREP),
  fgrep: options(GREP),
  rg: options(RG),
  cut: options({
    globs: true,
    flags: 'nsz',
    values: 'bcdf',
    long: 'bytes= characters= delimiter= fields= complement only-delimited output-delimiter= zero-terminated help version',
    abbreviate: true,
  }),
  tr: options({
    globs: true,
    flags: 'cCdst',
    long: 'complement delete squeeze-repeats truncate-set1 help version',
    abbreviate: true,
  }),
  nl: options({
    globs: true,
    flags: 'p',
    values: 'bdfhilnsvw',
    long: 'body-numbering= section-delimiter= footer-numbering= header-numbering= line-increment= join-blank-lines= number-format= no-renumber number-separator= starting-line-number= number-width= help version',
    abbreviate: true,
  }),
  od: options({
    globs: true,
    flags: 'bcdfiloxsv',
    values: 'AjNtSw',
    long: 'address-radix= endian= skip-bytes= read-bytes= format= output-duplicates strings? width? traditional help version',
    abbreviate: true,
  }),
  cmp: options({
    globs: true,
    flags: 'blsz',
    values: 'in',
    long: 'print-bytes ignore-initial= verbose bytes= quiet silent zero-terminated help version',
    abbreviate: true,
  }),
  diff: options({
    globs: true,
    flags: 'iEZbwBaqsyNprutcTd',
    values: 'CUWIFSxX',
    long:
      'normal brief report-identical-files context? unified? ed rcs side-by-side width= left-column ' +
      'suppress-common-lines show-c-function show-function-line= label= expand-tabs initial-tab ' +
      'tabsize= suppress-blank-empty ignore-case ignore-tab-expansion ignore-trailing-space ' +
      'ignore-space-change ignore-all-space ignore-blank-lines ignore-matching-lines= text ' +
      'strip-trailing-cr recursive new-file unidirectional-new-file exclude= exclude-from= ' +
      'starting-file= from-file= to-file= minimal speed-large-files color? no-dereference ' +
      'horizon-lines= line-format= old-line-format= new-line-format= unchanged-line-format= ' +
      'old-group-format= new-group-format= changed-group-format= unchanged-group-format= ' +
      'ignore-file-name-case no-ignore-file-name-case palette= help version',
    numeric: true,
    abbreviate: true,
  }),
  comm: options({
    globs: true,
    flags: '123iz',
    long: 'check-order nocheck-order output-delimiter= total zero-terminated help version',
    abbreviate: true,
  }),
  basename: options({
    globs: true,
    flags: 'asz',
    long: 'multiple suffix= zero help version',
    values: 'S',
    abbreviate: true,
  }),
  dirname: options({
    globs: true,
    flags: 'z',
    long: 'zero help version',
    abbreviate: true,
  }),
  realpath: options({
    globs: true,
    flags: 'eLmPqsz',
    long: 'canonicalize-existing canonicalize-missing logical physical quiet relative-to= relative-base= strip no-symlinks zero help version',
    abbreviate: true,
  }),
  readlink: options({
    globs: true,
    flags: 'femnqsvz',
    long: 'canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero help version',
    abbreviate: true,
  }),
  stat: options({
    globs: true,
    flags: 'LftZ',
    values: 'c',
    long: 'dereference file-system cached= format= printf= terse help version',
    abbreviate: true,
  }),
  du: options({
    globs: true,
    flags: 'a0bcDhHkLlmPSsxt',
    values: 'BdtX',
    long:
      'all apparent-size block-size= bytes total dereference-args human-readable inodes dereference ' +
      'count-links max-depth= null no-dereference separate-dirs si summarize threshold= time? ' +
      'time-style= exclude-from= exclude= one-file-system files0-from= help version',
    abbreviate: true,
  }),
  df: options({
    globs: true,
    flags: 'ahHiklPTvx',
    values: 'Bt',
    long: 'all block-size= human-readable si inodes local no-sync output? portability print-type sync total type= exclude-type= help version',
    abbreviate: true,
  }),
  sort: options(SORT),
  uniq: uniqCheck,
  date: dateCheck,
  sed: sedCheck,
  awk: awkCheck,
  find: findCheck,
  tar: tarCheck,
  git: gitCheck,
  tally: tallyCheck,
  npx: npxCheck,
  tree: options({
    flags: 'adfilxpsughDFqNQtvrcUCnJXA',
    values: 'LPIH',
    long: 'prune noreport du si dirsfirst gitignore matchdirs ignore-case charset= filelimit= sort= timefmt= help version',
    // -o writes the listing to a file; -R (with -H) writes 00Tree.html files.
    write: '-o -R',
  }),
  file: options({
    flags: 'bcEhiIkLlNrsSzZ0p',
    values: 'eFfmP',
    long:
      'brief mime mime-type mime-encoding dereference no-dereference keep-going raw special-files ' +
      'uncompress uncompress-noreport no-buffer no-pad print0 separator= files-from= magic-file= ' +
      'exclude= exclude-quiet= extension apple parameter= help version',
    write: '-C --compile',
    abbreviate: true,
  }),
  jq: options({
    globs: true,
    flags: 'ncrjaSCMsieh',
    values: 'fL',
    long:
      'null-input compact-output raw-output join-output ascii-output sort-keys color-output ' +
      'monochrome-output slurp exit-status tab indent= unbuffered stream stream-errors seq ' +
      'raw-input arg= argjson= slurpfile= rawfile= args jsonargs from-file= raw-output0 help version',
  }),
  which: options({ flags: 'as', globs: true }),
  type: options({ flags: 'afptP' }),
  uname: options({
    flags: 'asnrvmpio',
    long: 'all kernel-name nodename kernel-release kernel-version machine processor hardware-platform operating-system help version',
    abbreviate: true,
  }),
  whoami: options({ long: 'help version' }),
  md5sum: options(SUMS),
  sha1sum: options(SUMS),
  sha256sum: options(SUMS),
  sha512sum: options(SUMS),
  cksum: options({ flags: 'a', long: 'algorithm= base64 check raw tag untagged length= help version' }),
  // Arguments are data (but for a variable name given to printf, test or [).
  echo: anyWords,
  printf: printfCheck,
  true: anyWords,
  false: anyWords,
  test: testCheck,
  '[': testCheck,
};

/**
 * `launchers`: absolute paths of Tally launchers trusted as `tally` itself — the plugin's own
 * `bin/tally.js` (its skills run `node "${CLAUDE_PLUGIN_ROOT}/bin/tally.js" scout …`). Only
 * these exact paths: any other script run by node runs code this check cannot see.
 */
export function classifyShellCommand(command: unknown, launchers: readonly string[] = []): CommandVerdict {
  if (typeof command !== 'string') return { readOnly: false, why: 'the command is not a string' };
  if (command.length > MAX_CLASSIFIED_COMMAND)
    return { readOnly: false, why: `the command is longer than ${MAX_CLASSIFIED_COMMAND} characters` };
  const tokens = shellWords(command);
  if (typeof tokens === 'string') return { readOnly: false, why: `it contains ${tokens}` };
  const segments: ShellWord[][] = [[]];
  for (const token of tokens) {
    if ('operator' in token) {
      // Only a newline may follow nothing (blank lines, `ls;` then a newline); bash refuses `; ls`.
      if ((segments.at(-1) as ShellWord[]).length === 0 && token.operator !== '\n')
        return { readOnly: false, why: `an empty command before ${token.operator}` };
      segments.push([]);
    } else (segments.at(-1) as ShellWord[]).push(token);
  }
  const last = tokens.at(-1);
  if (last && 'operator' in last && last.operator !== ';' && last.operator !== '\n')
    return { readOnly: false, why: `a list that ends in ${last.operator}` };
  const commands = segments.filter((segment) => segment.length > 0);
  if (commands.length === 0) return { readOnly: false, why: 'the command is empty' };
  for (const [first, ...args] of commands as [ShellWord, ...ShellWord[]][]) {
    const name = first.word;
    const launcher = args[0];
    if (name === 'node' && launcher && !launcher.glob && launchers.includes(launcher.word)) {
      const why = tallyCheck(args.slice(1));
      if (why) return { readOnly: false, why: `node ${launcher.word}: ${why}` };
      continue;
    }
    if (name.includes('='))
      return { readOnly: false, why: `an environment assignment (${name.split('=')[0]}=…)` };
    // A glob word starts with `*`, `?` or `[`: of the names below only `[`, which bash leaves as
    // it is (an unclosed bracket matches nothing).
    const check = Object.hasOwn(SAFE, name) ? SAFE[name] : undefined;
    if (!check) return { readOnly: false, why: `${name.slice(0, 40)} is not a known read-only command` };
    const why = check(args);
    if (why) return { readOnly: false, why: `${name}: ${why}` };
  }
  return { readOnly: true };
}
