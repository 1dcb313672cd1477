import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyToolCall } from '../../src/surfaces/claude-code/classify-tool-call.js';
import { parseOptions, resolveLong } from '../../src/surfaces/claude-code/command-options.js';
import { classifyShellCommand } from '../../src/surfaces/claude-code/read-only-command.js';
import { awkProgramCheck, sedScriptCheck } from '../../src/surfaces/claude-code/script-checks.js';
import { shellWords } from '../../src/surfaces/claude-code/shell-words.js';

// Issue 19, item 2: the classifier by allow-list. Every command below has its expected verdict.
const READ_ONLY = [
  // honest probes
  'git status',
  'git log --oneline -5',
  'rg foo src',
  'ls -la',
  'cat a | head',
  'sort file',
  'date +%F',
  'git status --short --branch',
  'git status -sb',
  'git status -uno',
  'git log --oneline --graph --decorate -20',
  'git log --format=%H%x09%s --since=2.weeks',
  'git log -n 3 --stat',
  'git log -n3 -p -- src/x.ts',
  'git log --author "Ann Lee" --no-merges',
  'git log --onel -3',
  'git show HEAD~1 --stat',
  'git show --name-only HEAD',
  'git diff --cached --stat',
  'git diff HEAD~2..HEAD -- src',
  'git diff -U5 --word-diff',
  'git diff --no-ext-diff',
  'git diff -M50% --name-status',
  'git grep -n "TODO" -- "*.ts"',
  'git grep -e foo --and -e bar',
  'git grep -il release',
  'git grep -C2 needle',
  'git blame -L 10,20 src/a.ts',
  'git rev-parse --show-toplevel',
  'git rev-parse --abbrev-ref HEAD',
  'git ls-files -m',
  'git ls-tree -r --name-only HEAD',
  'git describe --tags --always',
  'git shortlog -sn',
  'git cat-file -p HEAD',
  'git branch -vv',
  'git branch --list "feat/*"',
  'git tag -l "v1.*"',
  'git remote -v',
  'git stash show -p',
  'git reflog',
  'git reflog show -5',
  'git config --get user.name',
  'git config --list --show-origin',
  // Each read-only form of git tag/remote/config, one row each (mutation testing, git-command.ts).
  'git tag --list "v2.*"',
  'git remote get-url origin',
  'git config --get-all remote.origin.fetch',
  "git config --get-regexp '^user'",
  'git config --get-urlmatch http https://example.org',
  'git config -l',
  'git --no-pager log -1',
  'git -P diff',
  'git -C sub log -1',
  'git merge-base main HEAD',
  'git for-each-ref --format="%(refname)" refs/heads',
  'git count-objects -vH',
  'sort -u names.txt',
  'sort -k2,2n -t, data.csv',
  'sort -rn counts | head -3',
  'sort --numeric-sort --reverse f',
  'sort --rev f',
  'uniq -c sorted.txt',
  'date -u +%Y-%m-%dT%H:%M:%SZ',
  'date -d yesterday +%F',
  'date -Iseconds',
  'date --utc',
  'date -R',
  'find . -name "*.md" -type f',
  'find src -maxdepth 2 -type d -not -path "*/node_modules/*"',
  'find . -mtime -7 -size +10k -print',
  'find . \\( -name a -o -name b \\) -print0',
  'find . -newermt 2024-01-01 -ls',
  "find . -name '*.log' -printf '%p %s\\n'",
  "sed -n '1,20p' file",
  "sed -n '/start/,/end/p' log.txt",
  "sed 's/foo/bar/g' file",
  "sed -E 's/(a|b)+/x/' f",
  "sed -e 's/a/b/' -e 's/c/d/g' f",
  "sed '/^#/d' config",
  "sed -n '$p' f",
  "sed 'y/abc/xyz/' f",
  "sed '1i header' f",
  "sed -n 's/x/y/gp' f",
  "sed 's|/usr|/opt|' paths",
  "awk '{print $1}' file",
  "awk -F: '{print $1, $3}' /etc/passwd",
  "awk '$3 > 100 {print $1}' data",
  "awk 'NR==1, NR==5' f",
  "awk -v n=3 'NR <= n' f",
  "awk 'END {print NR}' f",
  "awk '{ if ($1 > 5 || $2 < 3) print }' f",
  'tar -tf archive.tar',
  'tar tvf archive.tar.gz',
  'tar --list --file=x.tar',
  'tar -tzf x.tgz | head',
  'rg -n "fn main" --type rust',
  'rg -l TODO -g "*.ts"',
  'rg --files | wc -l',
  'rg -i -C 3 foo src',
  'rg --json needle',
  'grep -rn "release" references 2>/dev/null',
  'grep -c foo a b',
  'grep -A2 -B1 pattern file',
  'grep --include=*.ts -r foo .',
  'grep -e-x- file',
  'grep -e x -- -file',
  'egrep "a|b" f',
  'head -n 20 file',
  'head -20 file',
  'tail -n +5 file',
  'tail -f log.txt',
  'wc -l src/*.ts',
  'cat -n README.md',
  'ls -1 src',
  'ls --sort=time -r',
  'ls *.md',
  'du -sh .',
  'df -h',
  'stat -c %s file',
  'file -b x.bin',
  'tree -L 2 src',
  'jq ".name" package.json',
  'jq -r ".scripts | keys[]" package.json',
  'diff -u a b',
  'cmp a b',
  'cut -d, -f1 data.csv',
  'tr a-z A-Z',
  'realpath ../x',
  'basename /a/b.txt .txt',
  'which node',
  'uname -a',
  'echo "hello > world"',
  'echo a\\>b',
  'printf "%s\\n" x',
  'test -f package.json && echo yes',
  '[ -d src ] || echo no',
  'true; false',
  'pwd',
  'cd src && ls',
  'sha256sum file',
  'md5sum -c sums',
  'ls 2>&1 | head',
  'cat a >/dev/null 2>/dev/null',
  'ls &>/dev/null',
  "echo 'it''s'",
  'echo "a \\" b"',
  'ls \\\n  -la',
  'tally records query --keyword release',
  'tally scout "ship it" --session abc --json',
  'tally runs --limit 5',
  'tally runs show r1 --json',
  'npx --no tally records query --keyword release',
  'npx --no tally stats --since 7d',
];

const WRITES = [
  // The attacks.
  "git grep --open='sh -c id' x",
  "git grep --open-files-in-pager='sh -c id' x",
  'git grep --ope=vi x',
  'git grep --ope x',
  'git grep -Ovi x',
  'git grep -nO x',
  'git grep -iOvi x',
  'sort -o out in',
  'sort -o/tmp/out in',
  'sort -uo out in',
  'sort --out=x in',
  'sort --outp=x in',
  'sort --output x in',
  'sort --compress-program=sh in',
  'sort --comp=sh in',
  'sort -T /tmp in',
  'date -us@0',
  'date -s @0',
  'date --set=2020-01-01',
  'date --se 2020-01-01',
  'date 010100002020',
  'date -u 0101',
  // git that writes or runs programs
  'git commit -m x',
  'git push',
  'git checkout main',
  'git reset --hard',
  'git add .',
  'git stash',
  'git stash pop',
  'git stash drop',
  'git tag v1.0',
  'git tag -d v1',
  'git tag -a v1 -m x',
  'git branch new-feature',
  'git branch -D old',
  'git branch -vD old',
  'git branch --set-upstream-to=origin/x',
  'git branch -a newbranch',
  'git remote add evil http://x',
  'git remote set-url origin x',
  'git remote remove origin',
  'git remote get-url origin extra',
  'git config user.name x',
  'git config core.pager "sh -c id"',
  'git config --add a.b c',
  'git config --unset a.b',
  'git -c core.pager=id log',
  'git -c alias.x=!id x',
  'git --git-dir=/tmp/evil log',
  'git --work-tree=/tmp log',
  'git --exec-path=/tmp log',
  'git diff --output=x',
  'git diff --out=x',
  'git diff --ext-diff',
  'git log -p --ext-diff',
  'git log --output=/tmp/x',
  'git show --outp=x',
  'git format-patch -o out HEAD~1',
  'git reflog expire --all',
  'git reflog delete HEAD@{1}',
  'git clean -fd',
  'git am x.patch',
  'git apply x.patch',
  'git worktree add ../x',
  'git st',
  'git',
  'git log --frobnicate',
  // sed that writes or runs
  "sed -i 's/a/b/' file",
  "sed -i.bak 's/a/b/' file",
  "sed --in-place 's/a/b/' f",
  "sed --in 's/a/b/' f",
  "sed -ni 's/a/b/p' f",
  "sed -n '1w out' file",
  "sed 'w out' f",
  "sed 's/a/b/w out' f",
  "sed 's/a/b/gw out' f",
  "sed 's/a/b/e' f",
  "sed '1e id' f",
  "sed -e 's/a/b/' -e 'w x' f",
  'sed -f script.sed f',
  "sed ':a;w out' f",
  "sed '/x/W out' f",
  "sed '/x/{w out\n}' f",
  "sed -n '/a/!w out' f",
  "sed 's/a/b/;e id' f",
  // awk that writes or runs
  'awk \'{system("id")}\' f',
  'awk \'BEGIN{system("rm -rf x")}\'',
  'awk \'{print > "out"}\' f',
  'awk \'{print $1 >> "out"}\' f',
  'awk \'{printf "%s", $0 > "o"}\' f',
  'awk \'{print | "sh"}\' f',
  'awk \'BEGIN{"id" | getline x; print x}\'',
  'awk -f prog.awk f',
  'awk \'@load "x"; {print}\' f',
  'awk \'{print $0 ~ /;/ > "f"}\' f',
  'awk \'{print "a",\n$1 > "f"}\' g',
  "awk -i inplace '{print}' f",
  // find
  'find . -delete',
  'find . -name x -delete',
  "find . -exec rm '{}' ';'",
  'find . -exec rm \\{\\} \\;',
  "find . -execdir sh -c id ';'",
  "find . -ok rm '{}' ';'",
  'find . -fprint out',
  'find . -fprintf out %p',
  'find . -fls out',
  'find . -newer x -frobnicate',
  'find . -name *',
  'find *',
  // tar
  'tar -xf x.tar',
  'tar xvf x.tar',
  'tar -cf out.tar src',
  'tar czf out.tgz src',
  'tar -tf x.tar --to-command=sh',
  'tar -tf x.tar --use-compress-program=sh',
  'tar -t -I sh -f x.tar',
  'tar -tf host:x.tar',
  'tar -tf x.tar --checkpoint-action=exec=id',
  'tar --extract -f x',
  'tar --ext -f x',
  'tar -tf x.tar --index-file=out',
  // xargs, env, npx, npm, python, node, shells
  'find . -name x | xargs rm',
  'ls | xargs cat',
  'env',
  'env rm x',
  'env -i sh',
  'npx cowsay hi',
  'npx -y tally scout x',
  'npx tally fish "2 suites"',
  // Without --no, npx may fetch the unrelated public `tally` package.
  'npx tally records query --keyword release',
  'npm exec rimraf x',
  'npm run build',
  'npm version 2.4.0',
  'npm install',
  'python -c "print(1)"',
  'python3 script.py',
  'node -e "1"',
  'node script.js',
  'sh -c id',
  'bash x.sh',
  'eval ls',
  'exec ls',
  'command rm x',
  'time rm x',
  'nohup ls',
  'sudo ls',
  // redirections, tee, substitutions, subshells, groups
  'echo hi > file',
  'echo hi >> file',
  'echo hi >| file',
  'ls &> out',
  'ls 2> err',
  'ls 1>out',
  'ls >& out',
  'cat <<< "x" > f',
  'cat <<EOF',
  'cat < x',
  'cat a | tee b',
  'tee out < x',
  'ls $(rm x)',
  'ls `rm x`',
  'echo "$(rm x)"',
  'echo "`rm x`"',
  'ls "$HOME"',
  'ls ${HOME}',
  'cat <(rm x)',
  '(rm x)',
  '( ls )',
  '{ rm x; }',
  'ls & rm x',
  'ls |& cat',
  'PAGER=rm git log',
  'GIT_PAGER="sh -c id" git log',
  'LD_PRELOAD=x ls',
  '/bin/rm x',
  './script.sh',
  "'rm' x",
  'r\\m x',
  'ls; rm x',
  'ls && rm x',
  'ls || rm x',
  'ls\nrm x',
  'cat a | sh',
  'ls # && rm x',
  // unknown options are writes
  'ls --frobnicate',
  'cat --frob f',
  'head --output=x f',
  'grep --frob x f',
  'sort -Z f',
  'rg --pre ./evil x',
  'rg --pre=./evil x',
  'rg --hostname-bin=./evil x',
  'rg --pr x',
  'tree -o out',
  'tree -R -H . src',
  'file -C -m magic',
  'uniq in out',
  'wc --frob',
  'jq --frob . f',
  'sort * ',
  'tally fish "2 suites"',
  'tally records query --index ./db',
  'tally --ledger x.db runs',
  'tally code "do it"',
  'mkdir x',
  'touch f',
  'rm -rf /',
  'mv a b',
  'cp a b',
  'chmod +x f',
  'ln -s a b',
  'curl -o x http://h',
  'wget http://h',
  'install a b',
  'dd if=a of=b',
  'truncate -s0 f',
  'patch < x.diff',
  'perl -e 1',
  'ruby -e 1',
  '',
  '   ',
  ';',
  '| ls',
  'ls |',
  'ls &&',
];

describe('the command classifier by allow-list (issue 19, item 2)', () => {
  it('holds at least 150 commands with their verdicts', () => {
    expect(READ_ONLY.length + WRITES.length).toBeGreaterThanOrEqual(150);
  });

  it.each(READ_ONLY)('reads only: %j', (command) => {
    expect(classifyShellCommand(command)).toEqual({ readOnly: true });
  });

  it.each(WRITES)('writes (or may): %j', (command) => {
    const verdict = classifyShellCommand(command);
    expect(verdict.readOnly).toBe(false);
    expect((verdict as { why: string }).why.length).toBeGreaterThan(5);
  });

  it.each([
    ['git grep --ope=vi x', /--ope=vi \(--open-files-in-pager\), which writes or runs programs/],
    ['git grep -Ovi x', /-O \(in -Ovi\), which writes or runs programs/],
    ['sort --outp=x in', /--outp=x \(--output\)/],
    ['sort -uo out in', /-o \(in -uo\)/],
    ['date -us@0', /-s \(in -us@0\)/],
    ['date 0101', /date operand 0101, which sets the clock/],
    ['sort --r f', /ambiguous option --r \(--random-sort, --random-source, --reverse\)/],
    ['ls --frobnicate', /unknown option --frobnicate/],
    ['sort -Z f', /unknown option -Z$/],
    ['sort -uZ f', /unknown option -Z \(in -uZ\)/],
    ['rg --pr x', /unknown option --pr$/],
    ['sort -k', /-k without its value/],
    ['sort -k -o x', /value -o of -k \(it looks like an option\)/],
    ['sort -k * f', /a glob as the value of -k/],
    ['sort * f', /the glob \* \(it could expand to an option\)/],
    ['cat --number=3 f', /--number with a value/],
    ['git -c x=y log', /git -c/],
    ['git st', /git st is not a known read-only git subcommand/],
    ['git stash pop', /git stash pop is not a known read-only form/],
    ['git', /git with no subcommand/],
    ['git tag v1', /only with -l/],
    ['git *og', /a glob as the git subcommand/],
    ['git -C --no-pager log', /^git: git -C \(allowed before the subcommand/],
    ['git remote add x y', /git remote add is not a read-only form/],
    ['git config a.b c', /only with --get/],
    ['tar -xf x', /-x .*writes or runs programs/],
    ['tar -vf x', /only with -t/],
    ['tar -tf h:x', /remote archive/],
    ['sed', /no script/],
    ['awk', /no program/],
    ['uniq a b', /output file/],
    ['npx cowsay', /npx runs a package/],
    ['tally code x', /tally code is not a read-only tally command/],
    ['tally records query --index x', /tally records query: the unknown option --index/],
    ['find . -name x -exec id', /find -exec, which writes or runs programs/],
    ['find . -name', /find -name without its value/],
    ['find . -frob', /the find primary or word -frob/],
    ['find *', /among find's starting points/],
    ['find . -name *', /in a find expression/],
    ['sort * | head', /^sort: /],
    ['rm x', /^rm is not a known read-only command$/],
    ['A=1 ls', /environment assignment \(A=…\)/],
    ['ls |', /a list that ends in \|/],
    ['ls &&', /a list that ends in &&/],
    ['| ls', /an empty command before \|/],
  ])('says why for %j', (command, why) => {
    const verdict = classifyShellCommand(command);
    expect(verdict.readOnly).toBe(false);
    expect((verdict as { why: string }).why).toMatch(why);
  });

  it('passes `ls *` (ls has no option that writes) but no glob for a command with writers', () => {
    expect(classifyShellCommand('ls *').readOnly).toBe(true);
    expect(classifyShellCommand('echo *').readOnly).toBe(true);
    expect(classifyShellCommand('cat src/*.ts').readOnly).toBe(true);
    expect(classifyShellCommand("sort '*'").readOnly).toBe(true);
    expect(classifyShellCommand("sort ''*").readOnly).toBe(false);
    expect(classifyShellCommand('sort x*').readOnly).toBe(true);
  });
});

describe('the pieces', () => {
  it('splits shell words with quotes, escapes and operators', () => {
    expect(shellWords(`a 'b c' "d \\" \\$ \\x" e\\ f\\\ng`)).toEqual([
      { word: 'a', glob: false },
      { word: 'b c', glob: false },
      { word: 'd " $ \\x', glob: false },
      { word: 'e fg', glob: false },
    ]);
    expect(shellWords('a|b||c&&d;e\nf')).toEqual([
      { word: 'a', glob: false },
      { operator: '|' },
      { word: 'b', glob: false },
      { operator: '||' },
      { word: 'c', glob: false },
      { operator: '&&' },
      { word: 'd', glob: false },
      { operator: ';' },
      { word: 'e', glob: false },
      { operator: '\n' },
      { word: 'f', glob: false },
    ]);
    expect(shellWords('*.md ?x [ab] a* \\*')).toEqual([
      { word: '*.md', glob: true },
      { word: '?x', glob: true },
      { word: '[ab]', glob: true },
      { word: 'a*', glob: false },
      { word: '*', glob: false },
    ]);
    expect(shellWords('ls 2>/dev/null >/dev/null 2>&1 >&2 &>/dev/null x')).toEqual([
      { word: 'ls', glob: false },
      { word: 'x', glob: false },
    ]);
    expect(shellWords('a "b')).toBe('an unterminated double quote');
    expect(shellWords("a 'b")).toBe('an unterminated single quote');
    expect(shellWords('a \\')).toBe('a backslash at the end');
    expect(shellWords('a "$x"')).toBe('an expansion inside double quotes');
    expect(shellWords('a ;; b')).toBe('the operator ;;');
    expect(shellWords('a # c')).toBe('a comment (#)');
    expect(shellWords('a#b')).toEqual([{ word: 'a#b', glob: false }]);
    expect(shellWords('"a"\'b\'c')).toEqual([{ word: 'abc', glob: false }]);
    expect(shellWords('""')).toEqual([{ word: '', glob: false }]);
    expect(shellWords('x10>/dev/null')).toBe('a redirection');
  });

  it('expands long options the way getopt_long does', () => {
    const spec = { long: 'output= open-files-in-pager? color', abbreviate: true };
    expect(resolveLong(spec, 'out')).toBe('output');
    expect(resolveLong(spec, 'o')).toEqual({
      refused: 'the ambiguous option --o (--output, --open-files-in-pager)',
    });
    expect(resolveLong(spec, 'color')).toBe('color');
    expect(resolveLong({ long: 'color', abbreviate: false }, 'col')).toEqual({
      refused: 'the unknown option --col',
    });
    // An exact name wins over longer ones it prefixes.
    expect(resolveLong({ long: 'all all-match', abbreviate: true }, 'all')).toBe('all');
  });

  it('parses options: clusters, attached and separate values, optional values, --', () => {
    const spec = { flags: 'ab', values: 'n', optional: 'O', long: 'name= color? quiet', numeric: true };
    const words = (...list: string[]) => list.map((word) => ({ word, glob: false }));
    expect(
      parseOptions(
        spec,
        words(
          '-abn5',
          'x',
          '-n',
          '6',
          '-O',
          '-Opager',
          '-7',
          '--name=v',
          '--name',
          'w',
          '--color=auto',
          '--quiet',
          '-',
          '--',
          '-z',
        ),
      ),
    ).toEqual({
      options: [
        { name: '-a' },
        { name: '-b' },
        { name: '-n', value: '5' },
        { name: '-n', value: '6' },
        { name: '-O', value: '' },
        { name: '-O', value: 'pager' },
        { name: '-#', value: '7' },
        { name: '--name', value: 'v' },
        { name: '--name', value: 'w' },
        { name: '--color', value: 'auto' },
        { name: '--quiet' },
      ],
      operands: words('x', '-', '-z'),
    });
    expect(parseOptions(spec, words('-n', '-5'))).toEqual({
      options: [{ name: '-n', value: '-5' }],
      operands: [],
    });
    expect(parseOptions({ ...spec, numeric: false }, words('-5'))).toEqual({
      refused: 'the unknown option -5',
    });
    expect(parseOptions(spec, words('--quiet=1'))).toEqual({ refused: 'the option --quiet with a value' });
    expect(parseOptions(spec, words('--name'))).toEqual({ refused: 'the option --name without its value' });
    expect(parseOptions({ flags: 'a', write: '-o --output=' }, words('-ao'))).toEqual({
      refused: 'the option -o (in -ao), which writes or runs programs',
    });
  });

  it('reads sed scripts the way GNU sed does', () => {
    for (const ok of [
      'p',
      '1,5p',
      '$!N',
      '/a\\/b/p',
      '\\%x%p',
      '/x/I,+3d',
      '0~2p',
      's/a/b/3',
      'y/a/b/',
      ':a;N;ba',
      '{p;p}',
      'l 40',
      'q5',
      '#c\np',
      'a text; w x',
      'r other.txt',
      's/[/]/x/',
    ])
      expect([ok, sedScriptCheck(ok)]).toEqual([ok, ok === 's/[/]/x/' ? 'the sed s/// flag x' : undefined]);
    for (const bad of [
      'w x',
      '1W x',
      'e id',
      's/a/b/w x',
      's/a/b/pe',
      'k',
      's/a/b',
      '/x',
      's\na\nb\n',
      'y/a/',
      's/a/b/gx',
      '\\',
    ])
      expect([bad, sedScriptCheck(bad)]).not.toEqual([bad, undefined]);
  });

  it('reads awk programs: strings and regexes are not code', () => {
    expect(awkProgramCheck('{print "a > b | c; system @x"}')).toBeUndefined();
    expect(awkProgramCheck('$1 ~ /x>y/ {print $1}')).toBeUndefined();
    expect(awkProgramCheck('{print a/2; x = 3 > 2}')).toBeUndefined();
    expect(awkProgramCheck('{print "x}" > "f"}')).toBe('an awk print to a file (print >)');
    expect(awkProgramCheck('{print "x')).toBe('an awk string it cannot read');
    expect(awkProgramCheck('{print a,\\\n b > "f"}')).toBe('an awk print to a file (print >)');
    expect(awkProgramCheck('{print a\n}\n$1 > 2')).toBeUndefined();
  });
});

describe('tool-name trust is bound to the server (issue 19, item 2)', () => {
  it.each([
    'mcp__tally__lookup',
    'mcp__tally__fs_read',
    'mcp__tally__records_cat',
    'mcp__tally__records_query',
    'mcp__tally__fs_grep',
    'Read',
    'Grep',
    'Glob',
    'Skill',
    'Task',
    'Agent',
    'TodoWrite',
    'WebSearch',
  ])('trusts %s as read-only', (name) => {
    expect(classifyToolCall(name, {})).toEqual({ writes: false });
  });

  it.each([
    'mcp__github__lookup',
    'mcp__evil__fs_read',
    'mcp__evil__records_cat',
    'mcp__tallyx__lookup',
    'mcp__x__tally__lookup',
    'mcp__tally__fs_write',
    'mcp__tally__lookup__x',
    'mcp__tally__',
    'mcp__plugin_x_tally__lookup',
    'SlashCommand',
    'KillShell',
    'KillBash',
    'WebFetch',
    'SomeFutureTool',
    'Write',
    'Edit',
    'MultiEdit',
    'NotebookEdit',
    'Bash',
  ])('does not trust %s by name', (name) => {
    expect(classifyToolCall(name, {})).toMatchObject({ writes: true });
  });

  it('says why', () => {
    expect(classifyToolCall('WebFetch', {})).toEqual({
      writes: true,
      why: 'WebFetch is not known to be read-only',
    });
    expect(classifyToolCall('Edit', {})).toEqual({ writes: true, why: 'Edit writes files' });
    expect(classifyToolCall('Bash', { command: 'sort -o x y' })).toEqual({
      writes: true,
      why: 'Bash: sort: the option -o (in -o), which writes or runs programs',
    });
    expect(classifyToolCall('Bash', null)).toEqual({
      writes: true,
      why: 'Bash: the command is not a string',
    });
    expect(classifyToolCall('', {})).toEqual({ writes: true, why: 'the payload names no tool' });
  });
});

describe('properties', () => {
  const OPTION_POOL = [
    '-u',
    '-o',
    '-n',
    '-r',
    '-k2',
    '--out=x',
    '--rev',
    '--frob',
    '-us@0',
    '-s',
    '--set=1',
    '-O',
    '--ope',
    '-e',
    'x',
    '--',
    '*',
    "'-o'",
    '-T',
    '-Z',
  ];
  // The tokens of the pool that `sort` accepts and that never write.
  const SORT_READERS = new Set(['-u', '-n', '-r', '-k2', '--rev', '-s', 'x']);

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (command) => {
        expect(typeof classifyShellCommand(command).readOnly).toBe('boolean');
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            ...OPTION_POOL,
            '|',
            '&&',
            ';',
            '"',
            "'",
            '\\',
            '(',
            '>',
            'git',
            'grep',
            'sed',
            'awk',
            'find',
            'tar',
            'date',
            'sort',
          ),
          { maxLength: 12 },
        ),
        (parts) => {
          expect(typeof classifyShellCommand(parts.join(' ')).readOnly).toBe('boolean');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a random option soup for sort is read-only only when every token is allow-listed', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...OPTION_POOL), { maxLength: 6 }), (soup) => {
        const verdict = classifyShellCommand(`sort ${soup.join(' ')}`);
        const cut = soup.indexOf('--');
        const options = cut < 0 ? soup : soup.slice(0, cut);
        expect(verdict.readOnly).toBe(options.every((token) => SORT_READERS.has(token)));
      }),
      { numRuns: 1000 },
    );
  });

  it('a random option soup for git grep and date never passes a writer', () => {
    const writers = ['-O', '--ope', '-Ox', '-nO', '--open=vi', '--ext-grep'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('-n', '-i', '-e', 'x', '-C2', '--cached', ...writers), { maxLength: 6 }),
        (soup) => {
          const verdict = classifyShellCommand(`git grep ${soup.join(' ')}`);
          const cut = soup.indexOf('--');
          const options = cut < 0 ? soup : soup.slice(0, cut);
          // Even right after `-e` (whose value it could be) a writer is refused: it looks like an option.
          if (options.some((token) => writers.includes(token))) expect(verdict.readOnly).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom('-u', '-R', '-s', '-us@0', '--set=1', '--se', '+%F', '0101', '--date=now', '-dnow'),
          {
            maxLength: 5,
          },
        ),
        (soup) => {
          const verdict = classifyShellCommand(`date ${soup.join(' ')}`);
          if (verdict.readOnly)
            expect(soup.every((token) => ['-u', '-R', '+%F', '--date=now', '-dnow'].includes(token))).toBe(
              true,
            );
        },
      ),
      { numRuns: 1000 },
    );
  });
});
