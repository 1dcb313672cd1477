// The testing helpers's error codes, added to core's `TallyErrorCodes` here (core names none of them).
declare module '../core/errors.js' {
  interface TallyErrorCodes {
    SCRIPT_EXHAUSTED: true;
    SCRIPT_UNUSED: true;
  }
}

export {};
