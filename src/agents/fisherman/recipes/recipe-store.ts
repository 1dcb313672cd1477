import { readdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { TallyError } from '../../../core/errors.js';
import { writeFileAtomicSync } from '../../../core/io/atomic-write.js';
import { secureStateDir } from '../../../core/io/private-dir.js';
import { absentError, readRegularFileSync } from '../../../core/io/read-regular-file.js';
import { parseFailure } from '../../../core/parse-error-place.js';
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
 * Security: the folders are core's private state directories (a real directory of this
 * user, never a symlink; `recipes` is 0700) and each file is opened with O_NOFOLLOW, so a
 * symlink planted at `.tally`, `recipes` or `<id>.json` is refused, never followed (it could
 * point a write at any file the user owns). Files are 0600.
 */
function ensureRealDirectory(path: string, create: boolean, mode?: number): boolean {
  const state = secureStateDir(path, { create, ...(mode !== undefined ? { mode } : {}) });
  if (!('refused' in state)) return true;
  if (state.reason === 'absent') return false; // not there yet, and not asked to create it
  if (state.reason === 'parent-missing') throw absentError(path);
  throw new RecipeStoreError(
    'RECIPES_NOT_A_DIRECTORY',
    state.reason === 'link' || state.reason === 'not-directory'
      ? `${path} is ${state.reason === 'link' ? 'a symlink' : 'not a directory'}; recipes are only kept in a real directory. Remove it and run again.`
      : `${state.why}; recipes are only kept in a private directory of this user. Remove it and run again.`,
    { path },
  );
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
    ensureRealDirectory(this.dir, true, 0o700);
    const path = this.fileOf(recipe.id);
    // Temp beside it, fsync, rename: a symlink at the destination is replaced, never written through.
    writeFileAtomicSync(path, `${JSON.stringify(recipe, null, 2)}\n`, { mode: 0o600 });
    return path;
  }

  /** The recipe with this id, or undefined when there is none. */
  get(id: string): Recipe | undefined {
    const path = this.fileOf(id);
    if (!this.exists()) return undefined;
    return this.read(path);
  }

  private read(path: string): Recipe | undefined {
    const read = readRegularFileSync(path, { maxBytes: RECIPE_SIZE_LIMIT });
    if ('refused' in read && read.refused === 'absent') return undefined;
    if ('refused' in read)
      throw new RecipeStoreError(
        'RECIPE_UNREADABLE',
        read.refused === 'not-regular' && read.kind === 'a symbolic link'
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
      throw new RecipeStoreError(
        'RECIPE_INVALID',
        `${path} is ${parseFailure('JSON', error, text)}; delete it.`,
        {
          path,
        },
      );
    }
    const parsed = recipeSchema().safeParse(json);
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
