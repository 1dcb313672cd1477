// `main` registers only the top-level command argv names (issue 22: the other commands cost ~3 ms
// of every start): what that command does, its help and its usage errors must be the same as
// with the whole program.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/surfaces/cli/main.js';

const noCode = () => undefined;

/** Every command's help, by its path from the program down. */
function helpTexts(command: Command, path: string[] = []): Map<string, string> {
  const texts = new Map<string, string>();
  for (const sub of command.commands) {
    const at = [...path, sub.name()];
    texts.set(at.join(' '), sub.helpInformation());
    for (const [name, text] of helpTexts(sub, at)) texts.set(name, text);
  }
  return texts;
}

describe('the program built for one command', () => {
  const whole = buildProgram(noCode);
  const names = whole.commands.map((command) => command.name());

  it('covers every built-in command: each alone has the same help, subcommands and options as in the whole program', () => {
    expect(names).toEqual(expect.arrayContaining(['fish', 'runs', 'report', 'stats', 'hook', 'scout']));
    const wholeHelp = helpTexts(whole);
    for (const name of names) {
      const one = buildProgram(noCode, {}, [], name);
      expect(
        one.commands.map((command) => command.name()),
        name,
      ).toEqual([name]);
      for (const [path, text] of helpTexts(one)) expect(text, path).toBe(wholeHelp.get(path));
      expect(one.options.map((option) => option.flags)).toEqual(whole.options.map((option) => option.flags));
    }
  });

  it('registers no command for a name that is not one (main then builds the whole program)', () => {
    expect(buildProgram(noCode, {}, [], 'fsh').commands).toEqual([]);
  });
});
