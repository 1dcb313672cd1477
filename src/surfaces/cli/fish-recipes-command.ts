import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Recipe } from '../../agents/fisherman/recipes/recipe.js';
import { RecipeStore } from '../../agents/fisherman/recipes/recipe-store.js';
import { EXIT } from './exit-codes.js';
import { formatTable } from './format-table.js';

interface RecipeFlags {
  json?: boolean;
}

const store = () => new RecipeStore(resolve('.tally', 'recipes'));

/** `--json` given to `fish recipes show ID --json` lands on a parent command; it counts here. */
function wantsJson(options: RecipeFlags, command: Command): boolean {
  return Boolean(options.json || command.parent?.opts().json || command.parent?.parent?.opts().json);
}

function steps(recipe: Recipe): string {
  return [recipe.container, recipe.parent, recipe.child]
    .filter((step) => step !== undefined)
    .map((step) => `POST ${step.path}`)
    .join(' → ');
}

/** `tally fish recipes`: the recipes of this project (`.tally/recipes/`), newest first. */
export default async function fishRecipesCommand(options: RecipeFlags, command: Command): Promise<number> {
  const { recipes, unusable } = store().list();
  if (wantsJson(options, command)) {
    process.stdout.write(`${JSON.stringify({ recipes, unusable }, null, 2)}\n`);
    return EXIT.ok;
  }
  if (recipes.length === 0 && unusable.length === 0) {
    process.stdout.write(
      'No recipes yet. A request the model solves (with --model) is kept as a recipe for its app and shape.\n',
    );
    return EXIT.ok;
  }
  const rows = recipes.map((recipe) => [
    recipe.id,
    recipe.origin,
    recipe.scope,
    recipe.shape,
    steps(recipe),
    recipe.createdAt,
  ]);
  process.stdout.write(`${formatTable(['ID', 'APP', 'SCOPE', 'SHAPE', 'STEPS', 'SAVED'], rows)}\n`);
  for (const item of unusable) process.stdout.write(`unusable: ${item.file}: ${item.why}\n`);
  return EXIT.ok;
}

/** `tally fish recipes show ID`. */
export async function showRecipe(id: string, options: RecipeFlags, command: Command): Promise<number> {
  const recipe = store().get(id);
  if (!recipe) {
    process.stderr.write(`tally: no recipe ${id}. Run \`tally fish recipes\` to list them.\n`);
    return EXIT.notMet;
  }
  if (wantsJson(options, command)) process.stdout.write(`${JSON.stringify(recipe, null, 2)}\n`);
  else
    process.stdout.write(
      `recipe ${recipe.id} (${recipe.shape}) for ${recipe.origin} ${recipe.scope}\nlearned from run ${recipe.fromRun}: "${recipe.request}"\n${JSON.stringify({ container: recipe.container, parent: recipe.parent, child: recipe.child }, null, 2)}\n`,
    );
  return EXIT.ok;
}

/** `tally fish recipes delete ID`. */
export async function deleteRecipe(id: string): Promise<number> {
  if (!store().delete(id)) {
    process.stderr.write(`tally: no recipe ${id}. Run \`tally fish recipes\` to list them.\n`);
    return EXIT.notMet;
  }
  process.stdout.write(`Deleted recipe ${id}.\n`);
  return EXIT.ok;
}
