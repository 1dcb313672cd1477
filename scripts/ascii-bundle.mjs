// Part of `npm run build` (scripts/bundle-fast-paths.mjs): a launcher bundle is made pure ASCII.
// V8 holds a source with even one non-ASCII character as a two-byte string: the 1.2 MB CLI
// bundle then costs twice the memory to read, wrap and hash on every run (about 10 ms of CPU
// of each `tally fish`, issue 22). esbuild already writes strings, templates and identifiers as
// ASCII escapes; what it leaves are comments and regular-expression literals. The source's
// literals are written with \u escapes, and this step checks that what is left is only in
// comments before escaping it there, where it changes nothing the program does.
import { readFileSync, writeFileSync } from 'node:fs';
import { transform } from 'esbuild';

const NON_ASCII = /[^\x00-\x7f]/;
// A raw line or paragraph separator ends a `//` comment; written as an escape it would not.
const LINE_SEPARATORS = /[\u2028\u2029]/;

/** Escapes the non-ASCII characters of a bundle's comments; throws where any sits in code. */
export async function asciiBundle(file) {
  const source = readFileSync(file, 'utf8');
  if (!NON_ASCII.test(source)) return;
  if (LINE_SEPARATORS.test(source)) throw new Error(`${file}: a raw U+2028/U+2029 in the bundle`);
  // Without comments, and with esbuild escaping what it can, any character still outside ASCII
  // sits in code whose meaning an escape could change (a regex literal, a tagged template's raw text).
  const { code } = await transform(source, { minifyWhitespace: true, charset: 'ascii', format: 'cjs' });
  const inCode = code.match(/.{0,40}[^\x00-\x7f].{0,20}/);
  if (inCode)
    throw new Error(
      `${file}: a non-ASCII character outside a comment: ${inCode[0]} — write it as a \\u escape in the source`,
    );
  writeFileSync(
    file,
    source.replace(
      /[^\x00-\x7f]/g,
      (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  );
}
