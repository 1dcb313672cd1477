import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyToolCall } from '../../src/surfaces/claude-code/classify-tool-call.js';
import { classifyShellCommand } from '../../src/surfaces/claude-code/read-only-command.js';

describe('the read-only shell classifier (fail-closed)', () => {
  it.each([
    'ls -la',
    'cat package.json',
    'git log --oneline -10 | head -5',
    'git --no-pager diff HEAD~1 -- src',
    'git -C ../other status',
    'grep -rn "release" references 2>/dev/null',
    "rg 'fn main' src | wc -l",
    'find . -name "*.md" -type f',
    "sed -n '10,20p' README.md",
    'cd src && ls',
    'git branch -a',
    'git stash list',
    'npx --no tally records query --keyword release',
    'tally scout "release a version"',
    'ls >/dev/null 2>&1',
    "grep -E 'a$' file",
    'head -n 5 a.txt; tail -n 5 b.txt',
    // A list may end in `;` or a newline, and hold empty lines.
    'ls;',
    'ls\n',
    'ls\n\nls',
    // Scripts given as --expression are the scripts (the first operand is then a file).
    'sed --expression=p notes.txt',
    'npx --no-install tally stats',
    'tar --file=host:x.tar --list --force-local',
    // Exactly at the length limit.
    `ls ${'a'.repeat(4093)}`,
    "printf '%s\\n' a b",
    "printf -- '-v'",
    '[ -f a ] && test -n b',
  ])('passes %j', (command) => {
    expect(classifyShellCommand(command)).toEqual({ readOnly: true });
  });

  it.each([
    ['echo hi > file', /redirection/],
    ['echo hi >> file', /redirection/],
    ['cat a | tee b', /tee is not a known read-only command/],
    ['ls | sh', /sh is not/],
    ['find . -name x | xargs rm', /xargs/],
    ['find . -delete', /-delete/],
    ['find . -exec rm {} ;', /\{/],
    ["find . -exec rm '{}' ';'", /-exec/],
    ["sed -i 's/a/b/' file", /sed/],
    ["sed -n '1w out' file", /sed/],
    ['sort -o out in', /-o/],
    ['tar --file=host:x.tar --list', /remote archive/],
    [`ls ${'a'.repeat(4094)}`, /longer than 4096/],
    ['ls $(rm -rf /)', /\$/],
    ['ls `rm x`', /`/],
    ['(rm x)', /\(/],
    ['{ rm x; }', /\{/],
    ['ls & rm x', /background/],
    ['PAGER=rm git log', /environment assignment/],
    ['/bin/rm x', /not a known read-only command/],
    ['git commit -m x', /git commit/],
    ['git branch new-feature', /git branch/],
    ['git -c core.pager=rm log', /git -c/],
    ['git diff --output=x', /--output/],
    ['git grep -Ofoo x', /-O/],
    ['rg --pre ./evil x', /--pre/],
    ['npm version 2.4.0', /npm/],
    ['cat <(rm x)', /</],
    ['cat < x', /</],
    ['ls "$HOME"', /double quotes/],
    ["ls 'unterminated", /unterminated/],
    ['ls \\\n; rm x', /rm is not/], // a line continuation, then a writer
    ['ls; rm x', /rm is not/],
    ['ls && rm x', /rm is not/],
    ['ls || rm x', /rm is not/],
    ['ls\nrm x', /rm is not/],
    ['date -s 2020-01-01', /date/],
    ['tally fish "2 suites"', /tally fish/],
    ['', /empty/],
    ['ls >/dev/nullx', /redirection/],
    ['ls 2>/dev/null/../../x', /redirection/],
    // bash evaluates the subscript of a variable name handed to a builtin: quoted, it still runs.
    ["printf -v 'a[$(touch x)]' y", /printf: -v, which assigns to a shell variable/],
    ["printf -vname 'x'", /printf: -v/],
    ["test -v 'a[$(touch x)]'", /test: -v, which names a shell variable/],
    ["[ -v 'a[$(touch x)]' ]", /\[: -v/],
    ["[ -R 'a[$(touch x)]' ]", /\[: -R/],
    ["printf -x 'y'", /printf: the option -x/],
  ])('refuses %j', (command, why) => {
    const verdict = classifyShellCommand(command);
    expect(verdict.readOnly).toBe(false);
    expect((verdict as { why: string }).why).toMatch(why);
  });

  it('refuses non-strings and very long commands', () => {
    expect(classifyShellCommand(undefined).readOnly).toBe(false);
    expect(classifyShellCommand({ command: 'ls' }).readOnly).toBe(false);
    expect(classifyShellCommand(`ls ${'a'.repeat(5000)}`).readOnly).toBe(false);
  });

  it('never passes a command that contains a writer word as a command of its own (property)', () => {
    const safe = fc.constantFrom('ls', 'cat x', 'git log', 'grep a b', 'pwd');
    const writer = fc.constantFrom(
      'rm -rf x',
      'tee f',
      'mv a b',
      'cp a b',
      'touch f',
      'sh -c x',
      'python -c 1',
    );
    const joiner = fc.constantFrom(' | ', ' && ', ' ; ', ' || ', '\n');
    fc.assert(
      fc.property(
        fc.array(safe, { maxLength: 3 }),
        writer,
        joiner,
        fc.array(safe, { maxLength: 3 }),
        (before, bad, join, after) => {
          const command = [...before, bad, ...after].join(join);
          expect(classifyShellCommand(command).readOnly).toBe(false);
        },
      ),
    );
  });

  it('never throws on arbitrary input (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (command) => {
        const verdict = classifyShellCommand(command);
        expect(typeof verdict.readOnly).toBe('boolean');
      }),
    );
  });
});

describe('the trusted launcher and the corners mutation testing found', () => {
  const LAUNCHER = '/plugins/tally/bin/tally.js';

  it.each([
    `node ${LAUNCHER} scout "release a version"`,
    `node "${LAUNCHER}" scout x --session s1 && node ${LAUNCHER} runs show r1`,
    `node ${LAUNCHER} stats -h`,
    // Reading the launcher is reading: only `node` runs it.
    `cat ${LAUNCHER}`,
  ])('passes %j when the launcher is the trusted one', (command) => {
    expect(classifyShellCommand(command, [LAUNCHER])).toEqual({ readOnly: true });
  });

  it.each([
    // Without a trusted launcher, node runs code this check cannot see.
    [`node ${LAUNCHER} scout x`, [], /^node is not a known read-only command$/],
    ['node /elsewhere/tally.js scout x', [LAUNCHER], /^node is not a known read-only command$/],
    ['node', [LAUNCHER], /^node is not a known read-only command$/],
    // The launcher runs `tally`, so only tally's read-only forms pass through it.
    [`node ${LAUNCHER} fish x`, [LAUNCHER], `node ${LAUNCHER}: tally fish is not a read-only tally command`],
    [`node ${LAUNCHER}`, [LAUNCHER], `node ${LAUNCHER}: tally with no command`],
    [`node ${LAUNCHER} scout x; rm -rf y`, [LAUNCHER], /^rm is not a known read-only command$/],
    // A glob that spells a trusted path is still a glob: it may expand to something else.
    ['node [p]/tally.js scout x', ['[p]/tally.js'], /^node is not a known read-only command$/],
  ] as const)('refuses %j (launchers %j)', (command, launchers, why) => {
    const verdict = classifyShellCommand(command, launchers);
    expect(verdict.readOnly).toBe(false);
    if (typeof why === 'string') expect((verdict as { why: string }).why).toBe(why);
    else expect((verdict as { why: string }).why).toMatch(why);
  });

  it.each([
    'tar tvf x.tgz',
    'tar tf x.tar --force-local',
    // Each value letter of the cluster takes its own word, in order.
    'tar tfC x.tar /tmp',
    'ls;\n',
    'tally runs',
    'tally runs show r1 --full',
    'tally stats -V',
    '[ -f package.json ] && cat package.json',
    "'[' -d src ']'",
    // Quoted, a glob character is data: no expansion, no option.
    "sort '*.txt'",
    'tar -t',
    "awk '{ print $1 }' notes.txt",
  ])('passes %j', (command) => {
    expect(classifyShellCommand(command)).toEqual({ readOnly: true });
  });

  it.each([
    // A value letter at the end of the cluster takes the next word, here none left.
    ['tar tfz', 'tar: the value -z of -f (it looks like an option)'],
    ['tar tf', 'tar: the option -f without its value'],
    ['tar', 'tar: tar is read-only here only with -t/--list'],
    // Only a word of letters is a cluster: `t.tar` is a file name.
    ['tar t.tar', 'tar: tar is read-only here only with -t/--list'],
    // bash refuses an empty command before `;`.
    ['; ls', 'an empty command before ;'],
    ['ls\n; ls', 'an empty command before ;'],
    ['PAGER=rm git log', 'an environment assignment (PAGER=…)'],
    // A glob as the sed script or the awk program may expand to an option (`-i`, `-f`).
    ['sed *p notes.txt', 'sed: the glob *p (it could expand to an option)'],
    ['awk [x] notes.txt', 'awk: the glob [x] (it could expand to an option)'],
    // tally: the form is looked up by its own names, never by an inherited property.
    ['tally', 'tally: tally with no command'],
    ['tally --json', 'tally: tally with no command'],
    ['tally constructor', 'tally: tally constructor is not a read-only tally command'],
    ['tally records', 'tally: tally records is not a read-only tally command'],
    ['tally stats --since=1d --write', 'tally: tally stats: the unknown option --write'],
    ['tally runs -x', 'tally: tally runs: the unknown option -x'],
    ['npx', 'npx: npx runs a package this check cannot see'],
    ['npx --no', 'npx: npx runs a package this check cannot see'],
    [
      'npx tally stats',
      "npx: npx tally without --no may fetch and run an unrelated public package named tally: use npx --no tally, or the plugin's bin/tally.js",
    ],
    // Long words are cut in the reason (a hook message stays readable).
    [`date ${'1'.repeat(60)}`, `date: the date operand ${'1'.repeat(40)}, which sets the clock`],
    [`${'x'.repeat(60)} y`, `${'x'.repeat(40)} is not a known read-only command`],
    ['* x', '* is not a known read-only command'],
  ])('refuses %j', (command, why) => {
    const verdict = classifyShellCommand(command);
    expect(verdict.readOnly).toBe(false);
    expect((verdict as { why: string }).why).toBe(why);
  });
});

describe('tool calls', () => {
  it('reading tools, the skill and sub-agents pass; writers and unknown tools are writing', () => {
    expect(classifyToolCall('Read', { file_path: '/x' })).toEqual({ writes: false });
    expect(classifyToolCall('Skill', { skill: 'tally:how-do-i' })).toEqual({ writes: false });
    expect(classifyToolCall('mcp__tally__records_query', {})).toEqual({ writes: false });
    expect(classifyToolCall('mcp__tally__fs_write', {})).toMatchObject({ writes: true });
    expect(classifyToolCall('Write', {})).toMatchObject({ writes: true, why: 'Write writes files' });
    expect(classifyToolCall('SomeNewTool', {})).toMatchObject({
      writes: true,
      why: /not known to be read-only/,
    });
    expect(classifyToolCall('Bash', { command: 'ls' })).toEqual({ writes: false });
    expect(classifyToolCall('Bash', { command: 'rm x' })).toMatchObject({ writes: true, why: /^Bash: / });
    expect(classifyToolCall(undefined, undefined)).toMatchObject({ writes: true });
  });
});
