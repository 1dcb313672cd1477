// Public API of `tally/fisherman`: test data through an app's own API, and its cleanup.
// Importing this module has no side effects.

import { loginRecipeSchemaOnce } from '../../packs/http/client/login-recipe.js';

export { CaptureFormatError, CapturesNotFoundError } from '../../packs/http/captures/capture-error.js';
export {
  DEMO_LOGIN,
  LoginError,
  type LoginRecipe,
  readLoginRecipe,
} from '../../packs/http/client/login-recipe.js';
/** What a login recipe file may hold (the CLI builds it only when it reads one). */
export const loginRecipeSchema = loginRecipeSchemaOnce();
export { type HttpToolContext, httpTools } from '../../packs/http/tools/index.js';
export {
  type CleanupResult,
  cleanupRun,
  type Deletion,
  type DeletionOutcome,
} from './cleanup-run.js';
export {
  buildFishContext,
  type FishContext,
  type FishContextOptions,
  FishermanInputError,
} from './fish-context.js';
export { type PrepareDataOptions, type PrepareDataResult, prepareData } from './prepare-data.js';
