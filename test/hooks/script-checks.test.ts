import { describe, expect, it } from 'vitest';
import { awkProgramCheck, findCheck, sedScriptCheck } from '../../src/surfaces/claude-code/script-checks.js';

// Issue 19, item 2: the little languages inside read-only commands, each verdict with its
// exact reason (mutation testing of script-checks.ts, acceptance 3).
describe('sed scripts', () => {
  it.each([
    ['p', undefined],
    ['  ;; p', undefined],
    ['12,$p', undefined],
    ['1~3p', undefined],
    ['/a/,/b/!d', undefined],
    ['/a/IM p', undefined],
    ['1,~4p', undefined],
    ['\\,x,p', undefined],
    ['/\\//p', undefined],
    ['# only a comment', undefined],
    ['p # trailing comment\np', undefined],
    ['a hello \\\n w world', undefined],
    ['i\\\nw x', undefined],
    ['bend;:end p', undefined],
    ['b end\np', undefined],
    ['{ s/a/b/g }', undefined],
    ['s|a|b|2g;p', undefined],
    ['s/a/b/ ;p', undefined],
    ['s/a/b/#x', undefined],
    ['y/abc/xyz/;p', undefined],
    ['w out', 'the sed command w, which writes a file'],
    ['$W out', 'the sed command W, which writes a file'],
    ['/x/!e date', 'the sed command e, which runs a program'],
    ['p;w out', 'the sed command w, which writes a file'],
    // A comment, or the text of a/i/c, ends at its line: a writer on the next line is still read.
    ['p # note\nw out', 'the sed command w, which writes a file'],
    ['a hello\nw out', 'the sed command w, which writes a file'],
    // y takes no flags: a w right after it is the w command.
    ['y/a/b/w out', 'the sed command w, which writes a file'],
    // GNU sed takes no newline as an address delimiter: refused, even when a second one closes it.
    ['\\\nx\np', 'a sed address it cannot read'],
    ['p\nw out', 'the sed command w, which writes a file'],
    ['bx;w out', 'the sed command w, which writes a file'],
    ['bx}w out', 'the sed command w, which writes a file'],
    ['s/a/b/gw out', 'the sed s///w flag, which writes a file'],
    ['s/a/b/3e', 'the sed s///e flag, which runs a program'],
    ['s/a/b/x', 'the sed s/// flag x'],
    ['s a b x', 'the sed s/// flag x'],
    ['s', 'a sed s it cannot read'],
    ['s\\a\\b\\', 'a sed s it cannot read'],
    ['y\nab\n', 'a sed y it cannot read'],
    ['s/a\n/b/', 'a sed s command it cannot read'],
    ['s/a/b\n/', 'a sed s command it cannot read'],
    ['/abc', 'a sed address it cannot read'],
    ['\\', 'a sed address it cannot read'],
    ['\\\np', 'a sed address it cannot read'],
    ['\\\\p', 'a sed address it cannot read'],
    ['1,/x', 'a sed address it cannot read'],
    ['1,+/x', 'a sed address it cannot read'],
    ['k', 'the sed command "k"'],
    ['1,3!  k', 'the sed command "k"'],
  ])('%j → %j', (script, why) => {
    expect(sedScriptCheck(script)).toBe(why);
  });
});

describe('awk programs', () => {
  it.each([
    ['{ print $1 }', undefined],
    ['{ print "system(x) | y > z @load" }', undefined],
    ['{ print "a\\"b > c" }', undefined],
    ['$1 > 3 { print }', undefined],
    // After an operand a slash divides; after an operator or `print` it opens a regex.
    ['{ print $1 / 2 }', undefined],
    ['{ print $1/1024 " KB" }', undefined],
    ['/a|b/ { print }', undefined],
    ['$1 ~ /x|y/', undefined],
    ['/[0-9]+/ && /[^]|]/', undefined],
    ['/[[:alpha:]]|x/', undefined],
    ['{ print ($1 + $2) / 2 }', undefined],
    ['{ x = a / 2 } # a "quote and a / in a comment', undefined],
    ['{ if (a || b) print }', undefined],
    ['{ print $1; x = a > b }', undefined],
    ['{ print } END { n = a > b }', undefined],
    ['{ print /a>b/ }', undefined],
    ['{ print a,\n b }', undefined],
    ['{ print a\n x = y > z }', undefined],
    // Only a comma or backslash at the END of the line continues a print.
    ['{ print a,b\n x = y > z }', undefined],
    ['{ system("id") }', 'awk system(), which runs a program'],
    ['{ print "x" | "sh" }', 'an awk pipe, which runs a program'],
    ['@load "fork"', 'awk @load/@include or an indirect call'],
    ['{ print > "out" }', 'an awk print to a file (print >)'],
    ['{ printf "%s", $1 > "out" }', 'an awk print to a file (print >)'],
    ['{ print a,\n > "out" }', 'an awk print to a file (print >)'],
    ['{ print a \\\n > "out" }', 'an awk print to a file (print >)'],
    ['{ print "a', 'an awk string it cannot read'],
    ['{ print "a\nb" }', 'an awk string it cannot read'],
    ['{ print /a', 'an awk regex it cannot read'],
    // A quote inside a regex is no string: what follows it is code (it once hid the system()).
    ['$0 ~ /"/ { system("touch x") } /"/', 'awk system(), which runs a program'],
    ['{ n = /"/; print "a" | "sh"; m = /"/ }', 'an awk pipe, which runs a program'],
    // `(x) /` divides or, after `if (x)`, opens a regex: both readings must be clean.
    ['BEGIN { if (1) /"/; system("x"); y = /"/ }', 'awk system(), which runs a program'],
    ['{ a = (b) /"/; system("x"); c = /"/ }', 'awk system(), which runs a program'],
    // A newline after && || , ? : ( { does not end the print statement.
    ['{ print 1 &&\n1 > "out" }', 'an awk print to a file (print >)'],
    ['{ print 1 ||\n0 > "out" }', 'an awk print to a file (print >)'],
    ['{ print (1 ?\n2 : 3) > "out" }', 'an awk print to a file (print >)'],
    // Bracket expressions awks end differently, and a regex continued over a line: refused.
    ['/[/]"/ { system("x") } "/', 'an awk regex bracket expression it cannot read'],
    ['/[\\]/]/', 'an awk regex bracket expression it cannot read'],
    ['/a\\\nb/', 'an awk regex continued over a line'],
    ['{ print (a) / 2 }\n'.repeat(15), undefined],
    ['{ print (a) / 2 }\n'.repeat(16), 'an awk program with too many ambiguous slashes'],
  ])('%j → %j', (program, why) => {
    expect(awkProgramCheck(program)).toBe(why);
  });
});

describe('find expressions', () => {
  // Words as the shell hands them to find (the classifier passes `(`, `{}` and `;` quoted).
  const find = (line: string) =>
    findCheck(
      line
        .split(' ')
        .filter(Boolean)
        .map((word) => ({ word, glob: word.startsWith('*') })),
    );

  it.each([
    ['.', undefined],
    ['', undefined],
    ['-H -L -P -O3 -D stat . -name x', undefined],
    ['a b -type f -print0', undefined],
    ['. ( -name a -o -name b ) , ! -empty', undefined],
    ['. -newermt 2020-01-01', undefined],
    ['. -newerBa ref', undefined],
    ['. -maxdepth 2 -printf %p', undefined],
    ['. -exec rm {} +', 'find -exec, which writes or runs programs'],
    ['-L . -delete', 'find -delete, which writes or runs programs'],
    ['. -fprint out', 'find -fprint, which writes or runs programs'],
    ['. -name', 'find -name without its value'],
    ['. -newerxy ref', 'the find primary or word -newerxy, not known to be read-only'],
    ['. -newermtt ref', 'the find primary or word -newermtt, not known to be read-only'],
    ['. -print x-newermt ref', 'the find primary or word x-newermt, not known to be read-only'],
    ['. -name x y', 'the find primary or word y, not known to be read-only'],
    ['-O12 . -print', 'the find primary or word -O12, not known to be read-only'],
    ['-O . -print', 'the find primary or word -O, not known to be read-only'],
    ['. -name *.md', 'the glob *.md in a find expression (it could expand to a primary)'],
    ['* -print', "the glob * among find's starting points (it could expand to a primary)"],
    ['. -print *', 'the glob * in a find expression (it could expand to a primary)'],
    // `(`, `)`, `!` and `,` start the expression: a glob after them is in it, not a starting point.
    ['. ( *', 'the glob * in a find expression (it could expand to a primary)'],
    ['. ) *', 'the glob * in a find expression (it could expand to a primary)'],
    ['. ! *', 'the glob * in a find expression (it could expand to a primary)'],
    ['. , *', 'the glob * in a find expression (it could expand to a primary)'],
  ])('find %s → %j', (line, why) => {
    expect(find(line)).toBe(why);
  });
});
