// The Scout's error codes, added to core's `TallyErrorCodes` here (core names none of them).
declare module '../../core/errors.js' {
  interface TallyErrorCodes {
    SCOUT_TOOL_BUDGET: true;
  }
}

export {};
