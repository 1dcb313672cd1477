import { hasOption, type OptionSpec, type ParsedArguments, parseOptions } from './command-options.js';
import type { ShellWord } from './shell-words.js';

/**
 * `git` by allow-list: a few global options, then a subcommand with its own option allow-list.
 * git's parse-options expands unique prefixes of long options, so every subcommand's list also
 * names the options that write or run programs (`--output`, `--open-files-in-pager`,
 * `--ext-diff`): `git grep --ope=…` resolves to the pager and is refused. `git -c`, `--git-dir`,
 * `--work-tree`, `--exec-path` and aliases are refused (configuration can name programs).
 */

// Options shared by every command that shows diffs (diff, show, log -p, stash show).
const DIFF_LONG =
  'patch no-patch raw patch-with-raw patch-with-stat stat? numstat shortstat dirstat? cumulative ' +
  'dirstat-by-file? summary name-only name-status compact-summary submodule? color? no-color ' +
  'color-moved? no-color-moved color-moved-ws= no-color-moved-ws word-diff? word-diff-regex= ' +
  'color-words? no-renames rename-empty no-rename-empty check ws-error-highlight= full-index binary ' +
  'abbrev? break-rewrites? find-renames? find-copies? find-copies-harder irreversible-delete ' +
  'diff-filter= pickaxe-all pickaxe-regex find-object= skip-to= rotate-to= relative? no-relative ' +
  'text ignore-cr-at-eol ignore-space-at-eol ignore-space-change ignore-all-space ignore-blank-lines ' +
  'ignore-matching-lines= inter-hunk-context= function-context exit-code quiet no-ext-diff ' +
  'textconv no-textconv ignore-submodules? src-prefix= dst-prefix= no-prefix default-prefix ' +
  'line-prefix= ita-invisible-in-index ita-visible-in-index minimal patience histogram anchored= ' +
  'diff-algorithm= indent-heuristic no-indent-heuristic unified= output-indicator-new= ' +
  'output-indicator-old= output-indicator-context= diff-merges= no-diff-merges combined-all-paths ' +
  'remerge-diff dd cc';
const DIFF_WRITE = '--output= --ext-diff';
const DIFF_FLAGS = 'psuzRaDbwWtm';
const DIFF_VALUES = 'USGlO';
const DIFF_OPTIONAL = 'MCBX';

const LOG_LONG =
  'oneline graph decorate? no-decorate decorate-refs= decorate-refs-exclude= source all branches? ' +
  'tags? remotes? glob= exclude= format= pretty? abbrev-commit no-abbrev-commit no-abbrev ' +
  'date= relative-date author= committer= grep= grep-reflog= since= until= after= before= ' +
  'max-count= skip= reverse first-parent merges no-merges min-parents= max-parents= no-min-parents ' +
  'no-max-parents follow topo-order date-order author-date-order left-right left-only right-only ' +
  'cherry cherry-pick cherry-mark boundary ancestry-path? simplify-by-decoration full-history ' +
  'dense sparse simplify-merges show-pulls walk-reflogs all-match invert-grep regexp-ignore-case ' +
  'basic-regexp extended-regexp fixed-strings perl-regexp mailmap no-mailmap use-mailmap ' +
  'no-use-mailmap log-size encoding= expand-tabs? no-expand-tabs notes? no-notes show-notes? ' +
  'show-linear-break? children parents count not no-walk? do-walk in-commit-order full-diff ' +
  'show-origin single-worktree bisect reflog alternate-refs since-as-filter= clear-decorations';

const DIFF_SPEC = { flags: DIFF_FLAGS, values: DIFF_VALUES, optional: DIFF_OPTIONAL, numeric: false };
const LOG_SPEC: OptionSpec = {
  flags: `${DIFF_FLAGS}ciEFPg`,
  values: `${DIFF_VALUES}nL`,
  optional: DIFF_OPTIONAL,
  long: `${DIFF_LONG} ${LOG_LONG}`,
  write: DIFF_WRITE,
  numeric: true,
  abbreviate: true,
};

type GitForm = { spec: OptionSpec; check?: (parsed: ParsedArguments) => string | undefined };

const operandsNeed =
  (why: string, ...names: string[]) =>
  (parsed: ParsedArguments): string | undefined =>
    parsed.operands.length === 0 || hasOption(parsed, ...names) ? undefined : why;

const GIT: Record<string, GitForm> = {
  log: { spec: LOG_SPEC },
  whatchanged: { spec: LOG_SPEC },
  show: { spec: LOG_SPEC },
  diff: {
    spec: {
      ...DIFF_SPEC,
      long: `${DIFF_LONG} cached staged merge-base no-index`,
      write: DIFF_WRITE,
      abbreviate: true,
    },
  },
  status: {
    spec: {
      flags: 'sbvz',
      optional: 'u',
      long:
        'short branch show-stash porcelain? long verbose untracked-files? ignored? ignore-submodules? ' +
        'null column? no-column ahead-behind no-ahead-behind renames no-renames find-renames?',
      abbreviate: true,
    },
  },
  'rev-parse': {
    spec: {
      flags: 'q',
      long:
        'verify quiet short? abbrev-ref? symbolic symbolic-full-name all branches? tags? remotes? ' +
        'glob= exclude= show-toplevel show-prefix show-cdup git-dir git-common-dir absolute-git-dir ' +
        'is-inside-git-dir is-inside-work-tree is-bare-repository is-shallow-repository ' +
        'show-superproject-working-tree show-object-format? show-ref-format resolve-git-dir= ' +
        'git-path= path-format= sq sq-quote not default= prefix= local-env-vars since= until= ' +
        'after= before= revs-only no-revs flags no-flags disambiguate=',
    },
  },
  'ls-files': {
    spec: {
      flags: 'cdmoiskuzftvZ',
      values: 'xX',
      long:
        'cached deleted modified others ignored stage killed unmerged directory no-empty-directory ' +
        'eol exclude= exclude-from= exclude-per-directory= exclude-standard error-unmatch full-name ' +
        'recurse-submodules abbrev? debug format= sparse deduplicate with-tree= resolve-undo',
      abbreviate: true,
    },
  },
  'ls-tree': {
    spec: {
      flags: 'drtlz',
      long: 'long name-only name-status object-only full-name full-tree abbrev? format=',
      abbreviate: true,
    },
  },
  blame: {
    spec: {
      flags: 'bcefklnpstw',
      values: 'LS',
      optional: 'MC',
      long:
        'root show-stats progress no-progress score-debug show-name show-number porcelain ' +
        'line-porcelain incremental show-email encoding= contents= date= reverse= first-parent ' +
        'minimal abbrev? ignore-rev= ignore-revs-file= color-lines color-by-age since=',
      abbreviate: true,
    },
  },
  grep: {
    spec: {
      flags: 'aiIwvhHEGFPcloLnqWpzr',
      values: 'efmABC',
      long:
        'cached untracked no-index exclude-standard no-exclude-standard recurse-submodules text ' +
        'textconv no-textconv ignore-case word-regexp invert-match full-name extended-regexp ' +
        'basic-regexp perl-regexp fixed-strings line-number column files-with-matches name-only ' +
        'files-without-match null count color? no-color break heading show-function context= ' +
        'after-context= before-context= function-context threads= max-depth= max-count= ' +
        'only-matching quiet and or not all-match recursive no-recursive',
      write: '-O --open-files-in-pager? --ext-grep',
      numeric: true,
      abbreviate: true,
    },
  },
  describe: {
    spec: {
      long: 'tags all long abbrev? always exact-match contains dirty? broken? match= exclude= first-parent candidates= debug',
      abbreviate: true,
    },
  },
  // `-n` is --numbered here, not a count.
  shortlog: {
    spec: {
      flags: 'nsec',
      optional: 'w',
      long: `${LOG_LONG} numbered summary email committer group=`,
      abbreviate: true,
    },
  },
  'cat-file': {
    spec: {
      flags: 'tspeZ',
      long:
        'textconv filters path= batch? batch-check? batch-command? batch-all-objects buffer unordered ' +
        'follow-symlinks allow-unknown-type use-mailmap no-use-mailmap mailmap no-mailmap',
      abbreviate: true,
    },
  },
  'merge-base': {
    spec: { flags: 'a', long: 'all octopus independent is-ancestor fork-point', abbreviate: true },
  },
  'name-rev': {
    spec: {
      long: 'tags refs= exclude= all name-only no-undefined always annotate-stdin',
      abbreviate: true,
    },
  },
  'for-each-ref': {
    spec: {
      long:
        'count= sort= format= shell perl python tcl points-at= merged? no-merged? contains? ' +
        'no-contains? ignore-case omit-empty exclude= color? stdin',
      abbreviate: true,
    },
  },
  'show-ref': {
    spec: {
      flags: 'dsq',
      long: 'head tags heads branches dereference hash? verify abbrev? quiet exists',
      abbreviate: true,
    },
  },
  'count-objects': { spec: { flags: 'vH', long: 'verbose human-readable', abbreviate: true } },
  version: { spec: { long: 'build-options', abbreviate: true } },
  // Read forms only: with operands, `git branch NAME` / `git tag NAME` create; `-l` makes them patterns.
  branch: {
    spec: {
      flags: 'arvli',
      long:
        'all remotes verbose list show-current contains? no-contains? merged? no-merged? points-at= ' +
        'sort= format= color? no-color column? no-column ignore-case abbrev? no-abbrev omit-empty',
      write:
        '-d -D -m -M -c -C -f -t -u --delete --move --copy --force --track? --no-track ' +
        '--set-upstream-to= --unset-upstream --edit-description --create-reflog --recurse-submodules',
      abbreviate: true,
    },
    check: operandsNeed('git branch with a name creates a branch (use --list for patterns)', '-l', '--list'),
  },
  tag: {
    spec: {
      flags: 'l',
      optional: 'n',
      long: 'list sort= format= contains? no-contains? merged? no-merged? points-at= ignore-case column? no-column color? omit-empty',
      write:
        '-a -s -u -f -d -v -m -F -e --annotate --sign --local-user= --force --delete --verify --message= --file= --edit --create-reflog --cleanup=',
      abbreviate: true,
    },
    check: (parsed) =>
      hasOption(parsed, '-l', '--list') ? undefined : 'git tag is read-only here only with -l/--list',
  },
  remote: {
    spec: { flags: 'v', long: 'verbose', abbreviate: true },
    check: (parsed) =>
      parsed.operands.length === 0 || (parsed.operands[0]?.word === 'get-url' && parsed.operands.length <= 2)
        ? undefined
        : `git remote ${parsed.operands[0]?.word ?? ''} is not a read-only form`,
  },
  config: {
    spec: {
      flags: 'lz',
      long:
        'get get-all get-regexp get-urlmatch list global system local worktree show-origin show-scope ' +
        'null name-only type= bool int bool-or-int path expiry-date default= includes no-includes',
      write: '-e --edit --add --replace-all --unset --unset-all --rename-section --remove-section',
      abbreviate: true,
    },
    check: (parsed) =>
      hasOption(parsed, '--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l')
        ? undefined
        : 'git config is read-only here only with --get, --get-all, --get-regexp or --list',
  },
};

// `git stash list|show` and `git reflog [show]` take a second word.
const GIT_SECOND: Record<string, Record<string, GitForm>> = {
  stash: { list: { spec: LOG_SPEC }, show: { spec: GIT.diff?.spec as OptionSpec } },
  reflog: { show: { spec: LOG_SPEC } },
};

const GLOBAL_FLAGS = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
  '--version',
]);

export function gitCheck(words: ShellWord[]): string | undefined {
  let rest = words;
  // Global options are matched exactly (git.c does not expand them): `git --no-pager log`, `git -C dir status`.
  for (;;) {
    const word = rest[0]?.word;
    if (word === '-C' && rest[1] && !rest[1].glob && !rest[1].word.startsWith('-')) rest = rest.slice(2);
    else if (word !== undefined && GLOBAL_FLAGS.has(word) && !rest[0]?.glob) rest = rest.slice(1);
    else break;
  }
  const [first, ...args] = rest;
  if (!first) return 'git with no subcommand';
  if (first.word.startsWith('-'))
    return `git ${first.word.slice(0, 40)} (allowed before the subcommand: --no-pager, -P, -C DIR, pathspec switches)`;
  if (first.glob) return 'a glob as the git subcommand';
  const sub = first.word;
  let form = Object.hasOwn(GIT, sub) ? GIT[sub] : undefined;
  let formArgs = args;
  const second = Object.hasOwn(GIT_SECOND, sub) ? GIT_SECOND[sub] : undefined;
  if (second) {
    const word = args[0]?.word;
    if (sub === 'reflog' && word === undefined) return undefined;
    form = word !== undefined && Object.hasOwn(second, word) ? second[word] : undefined;
    formArgs = args.slice(1);
    if (!form) return `git ${sub} ${word ?? ''} is not a known read-only form`.trimEnd();
  }
  if (!form) return `git ${sub.slice(0, 40)} is not a known read-only git subcommand`;
  const parsed = parseOptions(form.spec, formArgs);
  if ('refused' in parsed) return `git ${sub}: ${parsed.refused}`;
  return form.check?.(parsed);
}
