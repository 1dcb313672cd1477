// Loads the launcher's one-file bundles (dist/fast/cli/*.cjs) with V8's compiled code kept
// between runs. Compiling the CLI bundle (~1 MB) and the functions a run then uses is a good part
// of what `tally fish` or `tally runs` costs before its first useful step (issue 22).
// - Node >= 22.1 keeps compiled code itself (`module.enableCompileCache`): it is asked to, and
//   the bundle is an ordinary require().
// - Node 20 has no such switch. The bundle is compiled as a `vm.Script` with the cached data of
//   the last run, and the cache is written again (with every function that run compiled) when
//   it was missing or V8 rejected it. A script read from cached data has no dynamic-import
//   callback there, so the bundle's `import()`s (the lazy model SDK, pg, the other CLI commands)
//   call `__tallyImport`, passed in from here (scripts/route-dynamic-imports.mjs routes them).
// The cache lives in a folder only this user can write (checked, not assumed): cached code is
// code, and a file another user could plant there would run as us. Any failure only costs the
// compile. TALLY_NO_COMPILE_CACHE=1 (or Node's NODE_DISABLE_COMPILE_CACHE=1) turns it off.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

function cacheDisabled() {
  return process.env.TALLY_NO_COMPILE_CACHE === '1' || process.env.NODE_DISABLE_COMPILE_CACHE === '1';
}

/** A folder under the OS temp folder that exists, is ours and is closed to everyone else; else undefined. */
function privateCacheFolder() {
  if (typeof process.getuid !== 'function') return undefined;
  const uid = process.getuid();
  const folder = path.join(require('node:os').tmpdir(), `tally-compile-cache-${uid}`);
  try {
    fs.mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if (error?.code !== 'EEXIST') return undefined;
  }
  try {
    const stat = fs.lstatSync(folder);
    return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0 ? folder : undefined;
  } catch {
    return undefined;
  }
}

/** FNV-1a of a path, in hex: a name for a location, not a secret (node:crypto would add ~6 ms to a hook). */
function locationHash(text) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * Cached data is only valid for the exact bundle and the exact V8, V8 flags included, that made
 * it. The prefix names the bundle's location and the flags the launcher set (`tally fish` sets
 * some, `tally runs` none: v8-tier-flags.js), so a new cache replaces only older ones of the same
 * installation and flags: two installations, or two commands of one bundle, used in turn would
 * otherwise delete each other's cache on every run and compile the whole bundle every time.
 */
function cacheFileFor(folder, file, source, v8Flags) {
  const stat = fs.statSync(file);
  const where = locationHash(path.resolve(file));
  const flags = v8Flags ? locationHash(v8Flags) : 'default';
  const key = `${stat.size}-${Math.trunc(stat.mtimeMs)}-${source.length}-${process.version}-${process.arch}`;
  const prefix = `${path.basename(file)}.${where}.${flags}.`;
  return { prefix, path: path.join(folder, `${prefix}${key}.v8`) };
}

function readIfOurs(file) {
  try {
    const stat = fs.lstatSync(file);
    if (!stat.isFile() || stat.uid !== process.getuid() || (stat.mode & 0o022) !== 0) return undefined;
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

// A cache file is 'TLY', one byte saying how much of the bundle the run that wrote it compiled
// (its `coverage`), then V8's cached data.
const MAGIC = 'TLY';

/** The cached data in `file` and the coverage of the run that wrote it; undefined for none or another format. */
function readCache(file) {
  const bytes = readIfOurs(file);
  if (!bytes || bytes.length <= MAGIC.length + 1 || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC)
    return undefined;
  return { coverage: bytes[MAGIC.length], data: bytes.subarray(MAGIC.length + 1) };
}

/** Writes the new cache under a temporary name and renames it; drops caches of older bundles. */
function writeCache(folder, target, coverage, data) {
  try {
    const temporary = `${target.path}.${process.pid}.tmp`;
    const header = Buffer.from(`${MAGIC}\0`, 'latin1');
    header[MAGIC.length] = coverage;
    fs.writeFileSync(temporary, Buffer.concat([header, data]), { mode: 0o600 });
    fs.renameSync(temporary, target.path);
    for (const name of fs.readdirSync(folder)) {
      const stale = name.startsWith(target.prefix) && path.join(folder, name) !== target.path;
      if (stale) fs.rmSync(path.join(folder, name), { force: true });
    }
  } catch {
    // No cache written only costs the compile next time.
  }
}

/** An `import()` compiled the ordinary way: specifiers arrive absolute (file URLs) or bare. */
const importHere = (specifier) => import(specifier);

/**
 * The bundle's text. The build makes the bundles ASCII (scripts/ascii-bundle.mjs), and ASCII
 * bytes read as Latin-1 are the same text without UTF-8 decoding: for the 1.2 MB CLI bundle
 * about 10 ms of CPU of every `tally fish` (issue 22). A file with any other byte is decoded as
 * UTF-8, as require() would.
 */
function readSource(file) {
  const bytes = fs.readFileSync(file);
  return require('node:buffer').isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** Compiles `file` (CommonJS) with the cached data of an earlier run, or produces it. */
function requireWithScriptCache(file, folder, v8Flags, coverage) {
  const vm = require('node:vm');
  const Module = require('node:module');
  const source = readSource(file);
  const target = cacheFileFor(folder, file, source, v8Flags);
  const cached = readCache(target.path);
  const cachedData = cached?.data;
  // `__tallyImport`: the bundle's `import()`s come here (scripts/bundle-fast-paths.mjs routes
  // them), because a script deserialised from cached data has no dynamic-import callback on Node 20.
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname, __tallyImport) {${source}\n})`,
    {
      filename: file,
      ...(cachedData ? { cachedData } : {}),
    },
  );
  // Written again when missing, rejected, or made by a run that compiled less of the bundle than
  // this one will: the first command after an install (`tally runs`, `tally fish --help`) would
  // otherwise leave every later `tally fish` compiling much of what it runs (8 entities after a
  // `tally runs`: 182 ms CPU without this rule, 168 with it).
  // Not on every run: creating the cached data costs 6–20 ms.
  if (!cachedData || script.cachedDataRejected || cached.coverage < coverage) {
    // At exit, so the cache holds every function this run compiled (those read from the old
    // cache included), not only the top level.
    process.once('exit', () => writeCache(folder, target, coverage, script.createCachedData()));
  }
  // A real Module, in require's cache like any required file: what lists loaded modules sees it.
  const module = new Module(file);
  module.filename = file;
  if (typeof Module._nodeModulePaths === 'function')
    module.paths = Module._nodeModulePaths(path.dirname(file));
  require.cache[file] = module;
  try {
    script
      .runInThisContext()
      .call(
        module.exports,
        module.exports,
        Module.createRequire(file),
        module,
        file,
        path.dirname(file),
        importHere,
      );
  } catch (error) {
    delete require.cache[file];
    throw error;
  }
  module.loaded = true;
  return module.exports;
}

/**
 * require(file) for a launcher bundle, with compiled code kept between runs where this Node
 * allows. `v8Flags`: the V8 flags the launcher set for it ('' for none). Node's own cache keeps
 * code under each set of flags apart by itself. `coverage` (0–255): how much of the bundle this
 * kind of run compiles, relative to the bundle's other commands; on Node 20 a cache written by a
 * run of lower coverage is replaced by this run's.
 */
function requireBundle(file, v8Flags = '', coverage = 1) {
  if (cacheDisabled()) return require(file);
  const { enableCompileCache } = require('node:module');
  if (typeof enableCompileCache === 'function') {
    try {
      enableCompileCache();
    } catch {
      // No cache (an unwritable temp folder) only costs the compile.
    }
    return require(file);
  }
  const folder = privateCacheFolder();
  return folder ? requireWithScriptCache(file, folder, v8Flags, coverage) : require(file);
}

module.exports = { requireBundle };
