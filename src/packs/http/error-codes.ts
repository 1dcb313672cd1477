// The HTTP pack's error codes, added to core's `TallyErrorCodes` here (core names none of them).
declare module '../../core/errors.js' {
  interface TallyErrorCodes {
    BODY_TOO_DEEP: true;
    BROWSER_LOGIN_NO_SESSION: true;
    BROWSER_SCRIPT_FAILED: true;
    BROWSER_SCRIPT_INVALID: true;
    BROWSER_SCRIPT_NOT_FOUND: true;
    CAPTURES_NOT_FOUND: true;
    CAPTURE_INVALID: true;
    CSRF_NOT_FOUND: true;
    DELETE_REFUSED: true;
    INPUT_CHANGED: true;
    INPUT_NOT_FOUND: true;
    INPUT_NOT_REGULAR_FILE: true;
    INPUT_TOO_LARGE: true;
    INPUT_UNREADABLE: true;
    LOGIN_ENV_MISSING: true;
    LOGIN_FAILED: true;
    LOGIN_ORIGIN: true;
    LOGIN_RECIPE_INVALID: true;
    LOGIN_UNREACHABLE: true;
    NETWORK_ERROR: true;
    ORIGIN_LOCKED: true;
    PATH_INVALID: true;
    RECIPE_ENV_NOT_ALLOWED: true;
    RESPONSE_TOO_LARGE: true;
    SERVER_UNREACHABLE: true;
    SPEC_EMPTY: true;
    SPEC_UNREADABLE: true;
  }
}

export {};
