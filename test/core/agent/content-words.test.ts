import { describe, expect, it } from 'vitest';
import type { Claim } from '../../../src/core/agent/claims.js';
import { statedContents, withStatedContent } from '../../../src/core/agent/content-words.js';

describe('content named in words', () => {
  it.each([
    ['a.txt containing "hello"', ['hello']],
    ['a.txt contains "hello"', ['hello']],
    ['a.txt Containing: "hello"', ['hello']],
    ['a.txt with text "hello"', ['hello']],
    ['a.txt with the text "hello"', ['hello']],
    ['a.txt with  the  content "hello"', ['hello']],
    ['a.txt with contents "hello"', ['hello']],
    ['a.txt with the body "hello"', ['hello']],
    ['a.txt with the line "hello"', ['hello']],
    ['a.txt with the word "hello"', ['hello']],
    ['a.txt with the words "hello"', ['hello']],
    ['a note that says "hello"', ['hello']],
    ['a note that  says "hello"', ['hello']],
    ['a note containing : "hello"', ['hello']],
    ['a note that reads “hello”', ['hello']],
    ["a note that holds 'hello'", ['hello']],
    ['a note reading `hello`', ['hello']],
    ['a note saying"hello"', ['hello']],
    ['I wrote "hello" and writes "bye"', ['hello', 'bye']],
    ['written "hello", then containing "hello"', ['hello']],
    ['a note with "hello"', []],
    ['the file "hello"', []],
    ['uncontaining "hello"', []],
    ['containing "two\nlines"', []],
    ['containing ""', []],
  ])('%s', (text, expected) => {
    expect(statedContents(text)).toEqual(expected);
  });

  it('long content is taken whole up to 2000 characters', () => {
    const long = 'x'.repeat(2000);
    expect(statedContents(`containing "${long}"`)).toEqual([long]);
    expect(statedContents(`containing "${long}x"`)).toEqual([]);
  });

  it('a claim whose title names content is checked like `contains`; others are left as they are', () => {
    expect(withStatedContent({ target: 'a', title: 'note containing "hi" and saying "bye"' })).toEqual({
      target: 'a',
      title: 'note containing "hi" and saying "bye"',
      contains: 'hi',
    });
    const own = { target: 'a', title: 'note containing "hi"', contains: 'other' };
    expect(withStatedContent(own)).toBe(own);
    const untitled = { target: 'a', title: 3 } as unknown as Claim;
    expect(withStatedContent(untitled)).toBe(untitled);
    const plain = { target: 'a', title: 'a note' };
    expect(withStatedContent(plain)).toBe(plain);
  });
});
