// The workspace pack's error codes, added to core's `TallyErrorCodes` here (core names none of them).
declare module '../../core/errors.js' {
  interface TallyErrorCodes {
    DESTINATION_EXISTS: true;
    EDIT_AMBIGUOUS: true;
    EDIT_NOT_FOUND: true;
    FILE_CHANGED: true;
    FILE_NOT_FOUND: true;
    FILE_TOO_LARGE: true;
    IS_A_DIRECTORY: true;
    NOT_A_DIRECTORY: true;
    NOT_A_REGULAR_FILE: true;
    PATH_LOOP: true;
    PATH_OUTSIDE_PROJECT: true;
    PATTERN_INVALID: true;
    RANGE_INVALID: true;
    ROOT_NOT_FOUND: true;
    SEARCH_FAILED: true;
    SEARCH_TIMEOUT: true;
  }
}

export {};
