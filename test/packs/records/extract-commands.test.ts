import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { statedCommands } from '../../../src/packs/records/extract-commands.js';

const split = (markdown: string) => statedCommands(markdown);

describe('a record states commands to run, and warns against others', () => {
  it('an inline command in a clause that says not to run it is a warning, not a command', () => {
    for (const line of [
      'Never run `git push --force` on main.',
      'Do not run `git push --force` on main.',
      "Don't run `git push --force` on main.",
      'You must not run `git push --force` on main.',
      'Avoid `git push --force` on shared branches.',
      'Use `git push --force-with-lease`, not `git push --force`.',
      'Instead of `git push --force`, push a revert.',
      'Neither `git push --force` nor a rebase is allowed here.',
    ])
      expect(split(line).warned, line).toContain('git push --force');
  });

  it('a command the clause asks for stays a command: double negatives, a "not" about something else, another clause', () => {
    for (const [line, command] of [
      ["Don't forget to run `npm test` first.", 'npm test'],
      ['Never skip `npm test` before a release.', 'npm test'],
      ['Never deploy without running `npm run build` first.', 'npm run build'],
      ['Make sure the tree is not dirty before `git tag -s v1`.', 'git tag -s v1'],
      ['Check there are no changes with `git status --short`.', 'git status --short'],
      ['If the lock is stale, run `psql -c "select 1"`; do not run it twice.', 'psql -c "select 1"'],
      ['Never push on Friday: run `git push origin main` on Monday.', 'git push origin main'],
      ['Use `git push --force-with-lease`, not a plain force push.', 'git push --force-with-lease'],
    ] as const)
      expect(split(line), line).toEqual({ commands: [command], warned: [] });
  });

  it('a fenced block introduced as what not to do is warned against; any other block is stated', () => {
    expect(split('Do not run this:\n```\nrm -rf node_modules\n```\nRun:\n```\n$ npm ci\n```')).toEqual({
      commands: ['npm ci'],
      warned: ['rm -rf node_modules'],
    });
    expect(split('**Wrong:**\n\n```sh\ngit push --force\n```')).toEqual({
      commands: [],
      warned: ['git push --force'],
    });
    expect(split('Never skip this step:\n```\nnpm test\n```')).toEqual({
      commands: ['npm test'],
      warned: [],
    });
    // The label reaches the block right after it only.
    expect(split('Do not run this:\n```\nmake clean\n```\n```\nmake build\n```')).toEqual({
      commands: ['make build'],
      warned: ['make clean'],
    });
  });

  it('a label or a mark right before an inline command warns against it; the next clause is free of it', () => {
    expect(split('Bad: `git push --force`. Good: `git push --force-with-lease`.')).toEqual({
      commands: ['git push --force-with-lease'],
      warned: ['git push --force'],
    });
    for (const line of [
      "Don't: `npm publish --force`",
      '**Avoid:** `npm publish --force`',
      '- ❌ `npm publish --force`',
    ])
      expect(split(line), line).toEqual({ commands: [], warned: ['npm publish --force'] });
    expect(split('- ❌ `npm install --force`\n- ✅ `npm ci`')).toEqual({
      commands: ['npm ci'],
      warned: ['npm install --force'],
    });
    // A label that asks, or a caution, leaves the command one to run.
    for (const line of [
      'Note: `npm ci` is faster.',
      'Never skip: `npm test`',
      '⚠️ `git push --force` rewrites history',
    ])
      expect(split(line).warned, line).toEqual([]);
  });

  it('a list under a label that warns lists what not to run, up to where the list ends', () => {
    expect(
      split(
        'Never run these on main:\n\n- `git push --force`\n  (it rewrites history)\n- `git reset --hard origin/main`\n\nRun `git pull --rebase` instead.',
      ),
    ).toEqual({
      commands: ['git pull --rebase'],
      warned: ['git push --force', 'git reset --hard origin/main'],
    });
    // A label that is itself an item warns about the items nested in it, not its siblings.
    expect(split('1. Avoid these:\n   - `git push --force`\n2. Run `npm test`')).toEqual({
      commands: ['npm test'],
      warned: ['git push --force'],
    });
    for (const markdown of [
      'Run these before a release:\n- `npm test`\n- `npm run build`',
      'Never push on Friday; run these:\n- `npm test`\n- `npm run build`',
      'Never run these:\n- `git reset --hard`\n\nThen:\n- `npm test`\n- `npm run build`',
    ])
      expect(split(markdown).commands, markdown).toEqual(['npm test', 'npm run build']);
  });

  it('a warning verb whose object is something else (avoid downtime BY running these) asks for the commands', () => {
    for (const markdown of [
      'Avoid downtime by running these:\n- `npm run migrate`\n- `npm run deploy`',
      '**Avoiding downtime** by first running these:\n\n- `npm run migrate`\n- `npm run deploy`',
      'To avoid downtime, run these:\n- `npm run migrate`\n- `npm run deploy`',
      'Deploy without downtime by running these:\n- `npm run migrate`\n- `npm run deploy`',
      'Avoid downtime by running `npm run migrate` before `npm run deploy`.',
    ])
      expect(split(markdown), markdown).toEqual({
        commands: ['npm run migrate', 'npm run deploy'],
        warned: [],
      });
    expect(split('Avoid a broken deploy by running this:\n```\nnpm test\n```')).toEqual({
      commands: ['npm test'],
      warned: [],
    });
    // The object is the run or the commands themselves, or the means is negated: still a warning.
    for (const markdown of [
      'Avoid running these by hand:\n- `git push --force`',
      'Avoid these by using the wrapper instead:\n- `git push --force`',
      'Avoid downtime by not running these:\n- `git push --force`',
      'Avoid `git push --force` by using an alias.',
      'Never deploy by running these:\n- `git push --force`',
    ])
      expect(split(markdown), markdown).toEqual({ commands: [], warned: ['git push --force'] });
  });

  it("a block's tag says what its lines are: a script's lines, a session's prompted lines, no data or code", () => {
    const block = (tag: string, body: string) => statedCommands(`\`\`\`${tag}\n${body}\n\`\`\``).commands;
    expect(block('bash', '# rotate first\n./scripts/rotate.sh --env prod\npsql -c "select 1"')).toEqual([
      './scripts/rotate.sh --env prod',
      'psql -c "select 1"',
    ]);
    expect(block('sql', '-- as the owner\nALTER ROLE app PASSWORD NULL;')).toEqual([
      'ALTER ROLE app PASSWORD NULL;',
    ]);
    expect(block('console', '$ npm test\n  12 passing (40ms)\n$ npm run build')).toEqual([
      'npm test',
      'npm run build',
    ]);
    expect(block('yaml', 'jobs:\n  test:\n    run: npm test')).toEqual([]);
    expect(block('json', '{ "scripts": { "test": "vitest" } }')).toEqual([]);
    expect(block('ts', 'await run("npm test");')).toEqual([]);
    // No tag: a prompted line or one that starts like a command; output and data are not.
    expect(block('', '$ npm ci\nnpm test\n12 passing\n{ "ok": true }\ncd app && make build')).toEqual([
      'npm ci',
      'npm test',
      'cd app && make build',
    ]);
  });

  it('a command stated both as one to run and as a warning is a command the record asks for', () => {
    expect(
      split('Run `git push --force` only on your own branch.\nNever run `git push --force` on main.'),
    ).toEqual({
      commands: ['git push --force'],
      warned: [],
    });
  });

  it('a line of thousands of command spans is read in one pass, not once per span', () => {
    // 40,000 spans with no punctuation between them: each span's clause was the whole line
    // before it, read again per span (65 s here; now about 0.25 s).
    const spans = Array.from({ length: 40_000 }, (_, at) => `\`npm run task${at}\``);
    const started = performance.now();
    const { commands, warned } = statedCommands(`Never run ${spans.join(' ')}`);
    const took = performance.now() - started;
    // Every span is one of the two; the negation reaches the spans within its reach.
    expect(commands.length + warned.length).toBe(40_000);
    expect(warned.slice(0, 3)).toEqual(['npm run task0', 'npm run task1', 'npm run task2']);
    // A bound a hundred times what it takes, far below what the per-span read took.
    expect(took).toBeLessThan(5_000);
  });

  it('every code line or command span is exactly one of the two, and nothing else is', () => {
    const word = fc.constantFrom(
      'run',
      'never',
      'not',
      'do not',
      "don't",
      'use',
      'the',
      'without',
      'skip',
      ',',
      ';',
      ':',
    );
    const command = fc.constantFrom('npm test', 'git push --force', 'make build', 'psql -c x');
    const line = fc.oneof(
      fc
        .tuple(fc.array(word, { maxLength: 5 }), command, fc.array(word, { maxLength: 3 }))
        .map(([before, cmd, after]) => `${before.join(' ')} \`${cmd}\` ${after.join(' ')}`),
      command.map((cmd) => `\`\`\`\n${cmd}\n\`\`\``),
      fc.array(word, { maxLength: 6 }).map((words) => `${words.join(' ')}:`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), (lines) => {
        const markdown = lines.join('\n');
        const { commands, warned } = statedCommands(markdown);
        // Disjoint, and together exactly the commands the record spells out.
        expect(commands.filter((cmd) => warned.includes(cmd))).toEqual([]);
        const spelled = ['npm test', 'git push --force', 'make build', 'psql -c x'].filter((cmd) =>
          markdown.includes(cmd),
        );
        expect(new Set([...commands, ...warned])).toEqual(new Set(spelled));
      }),
    );
  });
});
