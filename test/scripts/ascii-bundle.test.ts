import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script (plain .mjs, no declarations)
import { asciiBundle } from '../../scripts/ascii-bundle.mjs';
import { tempDir } from '../helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FAST = join(ROOT, 'dist', 'fast', 'cli');

function bundleFile(text: string): string {
  const file = join(tempDir(), 'bundle.cjs');
  writeFileSync(file, text);
  return file;
}

describe('launcher bundles are pure ASCII (V8 reads them as one-byte strings: issue 22)', () => {
  it('the built bundles hold no character outside ASCII', () => {
    for (const name of readdirSync(FAST).filter((file) => file.endsWith('.cjs'))) {
      const source = readFileSync(join(FAST, name), 'latin1');
      expect({ name, nonAscii: /[^\x00-\x7f]/.exec(source)?.index }).toEqual({ name, nonAscii: undefined });
    }
  });

  it('escapes what comments hold, and the code runs the same', async () => {
    const file = bundleFile(
      '// a \u2014 b\n/** \u00b7 x */\nmodule.exports = "\\u2014" + /[\\u00b7]/u.source;\n',
    );
    await asciiBundle(file);
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(
      '// a \\u2014 b\n/** \\u00b7 x */\nmodule.exports = "\\u2014" + /[\\u00b7]/u.source;\n',
    );
    expect(/[^\x00-\x7f]/.test(text)).toBe(false);
  });

  it('refuses a non-ASCII character in a regular expression or a tagged template, where an escape changes the program', async () => {
    await expect(asciiBundle(bundleFile('module.exports = /[\u00b7]/u;\n'))).rejects.toThrow(
      /outside a comment/,
    );
    await expect(asciiBundle(bundleFile('module.exports = String.raw`\u2014`;\n'))).rejects.toThrow(
      /outside a comment/,
    );
  });

  it('refuses a raw line separator, which ends a // comment only while it is raw', async () => {
    await expect(asciiBundle(bundleFile('// a \u2028 b\nmodule.exports = 1;\n'))).rejects.toThrow(/U\+2028/);
  });
});
