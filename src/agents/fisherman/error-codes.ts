// The Fisherman's error codes, added to core's `TallyErrorCodes` here (core names none of them).
declare module '../../core/errors.js' {
  interface TallyErrorCodes {
    EMIT_INVALID: true;
    FISHERMAN_NEEDS_INPUT: true;
    FISHERMAN_NEEDS_MODEL: true;
    FISHERMAN_NO_BASE_URL: true;
    FISHERMAN_NO_EXAMPLES: true;
    FISHERMAN_SCOPE_UNMATCHED: true;
    HEADER_INVALID: true;
    NOTHING_TO_CLEAN: true;
    RECIPES_NOT_A_DIRECTORY: true;
    RECIPE_ID_INVALID: true;
    RECIPE_INVALID: true;
    RECIPE_UNREADABLE: true;
  }
}

export {};
