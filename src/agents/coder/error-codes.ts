// The Coder's error codes, added to core's `TallyErrorCodes` here (core names none of them).
declare module '../../core/errors.js' {
  interface TallyErrorCodes {
    CASSETTE_EXHAUSTED: true;
    CASSETTE_INVALID: true;
    CASSETTE_UNREADABLE: true;
    CHAT_ID_INVALID: true;
    CHAT_NOT_FOUND: true;
    CHAT_STORE_UNSAFE: true;
    CHAT_UNREADABLE: true;
    DECISION_STORE_UNSAFE: true;
  }
}

export {};
