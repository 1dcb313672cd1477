// The records pack's error codes, added to core's `TallyErrorCodes` here (core names none of them).
declare module '../../core/errors.js' {
  interface TallyErrorCodes {
    CAT_REFUSED: true;
    IDLE_EXIT_INVALID: true;
    INDEX_UNAVAILABLE: true;
    ROOT_NOT_FOUND: true;
    STORE_INVALID: true;
    STORE_UNREADABLE: true;
  }
}

export {};
