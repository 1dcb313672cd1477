// Part of `npm run build` (scripts/bundle-fast-paths.mjs): every `import()` in a launcher bundle
// goes through `__import`, declared by the bundle's banner.
// - Loaded by require() (Node >= 22.1, or no cache), that is the bundle's own `import()`.
// - Loaded by bin/compiled-code-cache.js as a `vm.Script` fed cached data (Node 20), the script has
//   no dynamic-import callback (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING once deserialised), so the
//   loader passes `__tallyImport`, an `import()` of its own; relative specifiers are resolved
//   against the bundle's URL first.
import { readFileSync, writeFileSync } from 'node:fs';
import { init, parse } from 'es-module-lexer';

/** The first lines of every bundle (CommonJS has no import.meta: `__fastPathUrl` stands for it). */
export const BANNER = [
  'const __fastPathUrl = require("node:url").pathToFileURL(__filename).href;',
  'const __import = typeof __tallyImport === "function"',
  '  ? (specifier) => __tallyImport(specifier.startsWith(".") ? new URL(specifier, __fastPathUrl).href : specifier)',
  '  : (specifier) => import(specifier);',
].join('\n');

/**
 * Rewrites the `import(` of every dynamic import after the banner to `__import(`. es-module-lexer
 * finds the real expressions, not the word in strings, comments or regular expressions.
 */
export async function routeDynamicImports(file) {
  await init;
  const source = readFileSync(file, 'utf8');
  const bannerAt = source.indexOf(BANNER);
  if (bannerAt < 0) throw new Error(`${file}: the bundle banner is missing`);
  const bannerEnd = bannerAt + BANNER.length;
  const [imports] = parse(source);
  // `d` is the position of `(` (-1: a static import, -2: import.meta); `ss` of `import`.
  const routed = imports.filter((entry) => entry.d > -1 && entry.ss >= bannerEnd).sort((a, b) => b.ss - a.ss);
  let out = source;
  // From the end, so earlier offsets stay valid.
  for (const found of routed) {
    if (out.slice(found.ss, found.d) !== 'import')
      throw new Error(`${file}: unexpected import() at ${found.ss}`);
    out = `${out.slice(0, found.ss)}__import${out.slice(found.d)}`;
  }
  const left = parse(out)[0].filter((entry) => entry.d > -1).length;
  if (left !== 1)
    throw new Error(`${file}: ${left} import() calls left after routing, expected the banner's one`);
  writeFileSync(file, out);
  return routed.length;
}
