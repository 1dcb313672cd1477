import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { TallyError } from '../../../core/errors.js';
import { readOwnFile } from '../../../core/read-own-file.js';
import { type Recipe, recipeSchema } from './recipe.js';

export class RecipeStoreError extends TallyError {}

/** A recipe is a few kilobytes of JSON; anything far bigger is not one of ours. */
const RECIPE_SIZE_LIMIT = 1024 * 1024;
const ID = /^[0-9a-f]{12}$/;

/** A recipe file that exists but cannot be used, and why (listed, never silently skipped). */
export interface UnusableRecipe {
  file: string;
  why: string;
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Security: the folder and each file are checked with lstat and opened with O_NOFOLLOW,
 * so a symlink planted at `.tally`, `recipes` or `<id>.json` is refused, never followed
 * (it could point a write at any file the user owns). Folders are 0700, files 0600.
 */
function ensureRealDirectory(path: string, create: boolean): boolean {
  try {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink() || !stats.isDirectory())
      throw new RecipeStoreError(
        'RECIPES_NOT_A_DIRECTORY',
        `${path} is ${stats.isSymbolicLink() ? 'a symlink' : 'not a directory'}; recipes are only kept in a real directory. Remove it and run again.`,
        { path },
      );
    return true;
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') throw error;
    if (!create) return false;
    mkdirSync(path, { mode: 0o700 });
    return true;
  }
}

/** The recipes of one project, one JSON file per recipe under `.tally/recipes/`. */
export class RecipeStore {
  constructor(readonly dir: string) {}

  private fileOf(id: string): string {
    if (!ID.test(id))
      throw new RecipeStoreError(
        'RECIPE_ID_INVALID',
        `"${id}" is not a recipe id (12 hex digits). Run \`tally fish recipes\` to list them.`,
        { id },
      );
    return join(this.dir, `${id}.json`);
  }

  private exists(): boolean {
    return ensureRealDirectory(dirname(this.dir), false) && ensureRealDirectory(this.dir, false);
  }

  save(recipe: Recipe): string {
    ensureRealDirectory(dirname(this.dir), true);
    ensureRealDirectory(this.dir, true);
    const path = this.fileOf(recipe.id);
    const temp = join(this.dir, `.${recipe.id}.${randomBytes(4).toString('hex')}.tmp`);
    const descriptor = openSync(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      writeSync(descriptor, `${JSON.stringify(recipe, null, 2)}\n`);
    } finally {
      closeSync(descriptor);
    }
    // rename replaces a symlink at the destination itself; it never writes through it.
    renameSync(temp, path);
    return path;
  }

  /** The recipe with this id, or undefined when there is none. */
  get(id: string): Recipe | undefined {
    const path = this.fileOf(id);
    if (!this.exists()) return undefined;
    return this.read(path);
  }

  private read(path: string): Recipe | undefined {
    const read = readOwnFile(path, RECIPE_SIZE_LIMIT);
    if ('absent' in read) return undefined;
    if ('refused' in read)
      throw new RecipeStoreError(
        'RECIPE_UNREADABLE',
        read.refused === 'a symbolic link'
          ? `${path} is a symlink; delete it and run again.`
          : `${path} is not a regular file under ${RECIPE_SIZE_LIMIT} bytes; delete it and run again.`,
        { path },
      );
    const text = read.text;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      throw new RecipeStoreError('RECIPE_INVALID', `${path} is not JSON (${error.message}); delete it.`, {
        path,
      });
    }
    const parsed = recipeSchema.safeParse(json);
    if (!parsed.success)
      throw new RecipeStoreError(
        'RECIPE_INVALID',
        `${path} is not a recipe: ${z.prettifyError(parsed.error)}. Delete it with \`tally fish recipes delete\`.`,
        { path },
      );
    return parsed.data;
  }

  /** Every recipe, newest first, and the files that could not be read, with why. */
  list(): { recipes: Recipe[]; unusable: UnusableRecipe[] } {
    if (!this.exists()) return { recipes: [], unusable: [] };
    const recipes: Recipe[] = [];
    const unusable: UnusableRecipe[] = [];
    for (const entry of readdirSync(this.dir, { withFileTypes: true })) {
      if (!entry.name.endsWith('.json') || entry.name.startsWith('.')) continue;
      const path = join(this.dir, entry.name);
      if (!entry.isFile()) {
        unusable.push({ file: path, why: entry.isSymbolicLink() ? 'a symlink' : 'not a regular file' });
        continue;
      }
      try {
        const recipe = this.read(path);
        if (recipe) recipes.push(recipe);
      } catch (error) {
        if (!(error instanceof RecipeStoreError)) throw error;
        unusable.push({ file: path, why: error.message });
      }
    }
    recipes.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    return { recipes, unusable };
  }

  /** Deletes a recipe; false when there was none. */
  delete(id: string): boolean {
    const path = this.fileOf(id);
    if (!this.exists()) return false;
    try {
      unlinkSync(path);
      return true;
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return false;
      throw error;
    }
  }
}
