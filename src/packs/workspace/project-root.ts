import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { TallyError, ToolRejectedError } from '../../core/errors.js';
import { PathOutsideProjectError, type PathRejectionReason } from './path-outside-project-error.js';
import { suggestPath } from './suggest-path.js';

export interface ResolvedPath {
  /** The real absolute path to operate on (symlinks resolved). */
  absolute: string;
  /** Relative to the real project root, with forward slashes; `.` for the root. */
  relative: string;
  exists: boolean;
  /** The path as given, normalized onto the real root, before symlinks are followed. */
  anchored: string;
}

const MAX_LINK_HOPS = 40;
/** A bound on the resolution walk itself: deep paths plus every link hop. */
const MAX_STEPS = 4096;

/** Security: a pure predicate — is `child` the same as or below `parent`? (`/proj-evil` is not below `/proj`.) */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function hasCode(error: unknown, ...codes: string[]): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    codes.includes(String((error as { code: unknown }).code))
  );
}

/**
 * Synchronous on purpose: a request resolves one path at a time, and thread-pool round
 * trips cost more than the system calls themselves (measured in `npm run bench`).
 *
 * Follows a path to the real location it names: symlinks (chains, dangling ones included)
 * are resolved; for a path that does not exist yet, the nearest existing ancestor's real
 * path plus the missing tail.
 */
export async function realLocation(path: string): Promise<{ real: string; exists: boolean }> {
  // Fast path: an existing path resolves in one call.
  try {
    return { real: realpathSync.native(path), exists: true };
  } catch (error) {
    if (!hasCode(error, 'ENOENT', 'ENOTDIR', 'ELOOP')) throw error;
  }
  let current = path;
  const tail: string[] = [];
  // Only links count towards the loop limit; climbing out of missing directories is bounded by
  // the path's depth (a new file 41 directories deep is not a loop).
  let links = 0;
  for (let steps = 0; steps <= MAX_STEPS; steps++) {
    let stats: ReturnType<typeof lstatSync>;
    try {
      stats = lstatSync(current);
    } catch (error) {
      if (hasCode(error, 'ELOOP')) break;
      if (!hasCode(error, 'ENOENT', 'ENOTDIR')) throw error;
      const parent = dirname(current);
      if (parent === current) return { real: join(current, ...tail), exists: false };
      tail.unshift(basename(current));
      current = parent;
      continue;
    }
    if (stats.isSymbolicLink()) {
      try {
        return { real: join(realpathSync.native(current), ...tail), exists: tail.length === 0 };
      } catch (error) {
        if (!hasCode(error, 'ENOENT', 'ENOTDIR', 'ELOOP')) throw error;
        if (hasCode(error, 'ELOOP')) break;
        // Dangling: where would a write through this link land?
        links += 1;
        if (links > MAX_LINK_HOPS) break;
        current = resolve(dirname(current), readlinkSync(current));
        continue;
      }
    }
    return { real: join(realpathSync.native(current), ...tail), exists: tail.length === 0 };
  }
  throw new ToolRejectedError(
    'PATH_LOOP',
    `Too many symbolic links (a loop?) while resolving ${path}. Point the link at a real file.`,
    { path },
  );
}

/**
 * The one project root every workspace path resolves against. Relative paths are relative
 * to the root; absolute ones are accepted only inside it; `..` is normalized; the real path
 * (symlinks resolved) must stay inside the real root. Client roots (MCP) may narrow access.
 */
export class ProjectRoot {
  private narrowedTo: string[] | undefined;
  /** The client's roots as last applied, for the refusal message. */
  private clientRoots: string[] | undefined;

  private constructor(
    readonly root: string,
    readonly realRoot: string,
    private readonly protectedPaths: string[],
  ) {}

  /**
   * `protect`: paths inside the root the tools must never touch (Tally's own state folder,
   * so an agent cannot rewrite the ledger that judges it).
   */
  static async open(root: string, options: { protect?: string[] } = {}): Promise<ProjectRoot> {
    const absolute = resolve(root);
    let real: string;
    try {
      real = realpathSync.native(absolute);
    } catch (error) {
      if (!hasCode(error, 'ENOENT', 'ENOTDIR')) throw error;
      throw new TallyError(
        'ROOT_NOT_FOUND',
        `The project root ${absolute} does not exist. Pass --root with an existing directory.`,
        { root: absolute },
      );
    }
    const protectedPaths: string[] = [];
    for (const path of options.protect ?? []) {
      const resolved = resolve(path);
      const anchored = isInside(absolute, resolved) ? join(real, relative(absolute, resolved)) : resolved;
      const location = (await realLocation(anchored)).real;
      // Security: a protected path guards itself and what lies below it, and only inside the
      // root: a ledger folder that CONTAINS the root (`--ledger ../x.db`) is already out of
      // reach of every tool, and protecting it would refuse every path in the project.
      if (isInside(real, location)) protectedPaths.push(location);
    }
    return new ProjectRoot(absolute, real, protectedPaths);
  }

  /**
   * The protected paths (real locations): a listing, glob, tree or search leaves them and
   * everything under them out, by the same rule `resolve` refuses them by.
   */
  get protectedLocations(): readonly string[] {
    return this.protectedPaths;
  }

  /** True for a protected path or anything below it. */
  isProtected(real: string): boolean {
    return this.protectedPaths.some((path) => isInside(path, real));
  }

  /**
   * True when removing or moving `real` would take a protected path with it: the path itself,
   * or a folder above it (`--ledger data/state/ledger.db` is gone with `data`).
   */
  holdsProtected(real: string): boolean {
    return this.protectedPaths.some((path) => isInside(real, path));
  }

  /**
   * Applies an MCP client's roots (real paths): access becomes the intersection of the root
   * with them. A client root inside the root narrows to it; one that contains the root (a
   * client started at a monorepo's top) keeps the whole root; one beside it adds nothing. An
   * empty list, or undefined, offers no narrowing: the whole root stays allowed.
   * `unusable`: roots the client sent that name no path on this machine (`file://host/…`, an
   * encoded `/`): they add nothing, but they still narrow — a client that sent only those
   * gets no path at all, never the whole root.
   * Returns the directories now allowed.
   */
  narrow(clientRoots: string[] | undefined, unusable: readonly string[] = []): readonly string[] {
    if ((!clientRoots || clientRoots.length === 0) && unusable.length === 0) {
      this.narrowedTo = undefined;
      this.clientRoots = undefined;
      return this.allowedRoots;
    }
    const allowed = new Set<string>();
    for (const directory of clientRoots ?? []) {
      if (isInside(directory, this.realRoot)) allowed.add(this.realRoot);
      else if (isInside(this.realRoot, directory)) allowed.add(directory);
    }
    // Security: roots never widen — only what lies inside the real root can be added above.
    this.narrowedTo = allowed.has(this.realRoot) ? undefined : [...allowed];
    this.clientRoots = [...(clientRoots ?? []), ...unusable];
    return this.allowedRoots;
  }

  get allowedRoots(): string[] {
    return this.narrowedTo ?? [this.realRoot];
  }

  private reject(given: string, resolved: string, reason: PathRejectionReason): never {
    // A path refused for the client's roots exists in the project: suggesting it back would
    // repeat the refused path, so the message names what is allowed instead.
    if (reason === 'outside-client-roots')
      throw new PathOutsideProjectError(given, resolved, reason, this.realRoot, undefined, {
        allowed: this.allowedRoots,
        clientRoots: this.clientRoots ?? [],
      });
    // A protected path exists where it was asked for: there is nothing better to suggest. Nor
    // is a suggestion that only repeats the path given.
    const suggestion = reason === 'protected-path' ? undefined : suggestPath(given, this.realRoot);
    const repeats = suggestion !== undefined && normalize(suggestion) === normalize(given);
    throw new PathOutsideProjectError(
      given,
      resolved,
      reason,
      this.realRoot,
      repeats ? undefined : suggestion,
    );
  }

  async resolve(given: string): Promise<ResolvedPath> {
    if (typeof given !== 'string' || given.trim() === '')
      this.reject(String(given), this.realRoot, 'empty-path');
    if (given.includes('\0')) this.reject(given, '(contains a NUL byte)', 'nul-byte');
    const candidate = isAbsolute(given) ? normalize(given) : normalize(join(this.root, given));
    if (!isInside(this.root, candidate) && !isInside(this.realRoot, candidate)) {
      this.reject(given, candidate, isAbsolute(given) ? 'absolute-outside' : 'traversal');
    }
    // Re-anchor a path given under the root's non-real spelling onto the real root.
    const anchored = isInside(this.realRoot, candidate)
      ? candidate
      : join(this.realRoot, relative(this.root, candidate));
    const { real, exists } = await realLocation(anchored);
    if (!isInside(this.realRoot, real)) this.reject(given, real, 'symlink-escape');
    if (this.narrowedTo && !this.narrowedTo.some((allowed) => isInside(allowed, real)))
      this.reject(given, real, 'outside-client-roots');
    if (this.protectedPaths.some((path) => isInside(path, real))) this.reject(given, real, 'protected-path');
    const rel = relative(this.realRoot, real).split(sep).join('/');
    return { absolute: real, relative: rel === '' ? '.' : rel, exists, anchored };
  }

  /**
   * Like resolve, plus the directory entry itself (parent resolved, last component not
   * followed): what delete and move act on, so removing a link removes the link.
   */
  async resolveEntry(given: string): Promise<ResolvedPath & { entry: string; entryRelative: string }> {
    const resolved = await this.resolve(given);
    const entry =
      resolved.anchored === this.realRoot
        ? resolved.absolute
        : join((await realLocation(dirname(resolved.anchored))).real, basename(resolved.anchored));
    if (!isInside(this.realRoot, entry)) this.reject(given, entry, 'symlink-escape');
    // Security: delete and move act on the entry, not on what a link names: a link outside the
    // client's roots that points inside them is still outside them.
    if (this.narrowedTo && !this.narrowedTo.some((allowed) => isInside(allowed, entry)))
      this.reject(given, entry, 'outside-client-roots');
    // Security: delete and move take everything below the entry along (the root itself is
    // the tools' own refusal, `project-root`).
    if (entry !== this.realRoot && this.holdsProtected(entry)) this.reject(given, entry, 'protected-path');
    return { ...resolved, entry, entryRelative: relative(this.realRoot, entry).split(sep).join('/') || '.' };
  }
}
