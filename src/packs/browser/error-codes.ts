// The browser pack's error codes, added to core's `TallyErrorCodes` here (core names none of them).
declare module '../../core/errors.js' {
  interface TallyErrorCodes {
    BROWSER_UNAVAILABLE: true;
    URL_CREDENTIALS_REFUSED: true;
    URL_INVALID: true;
    URL_NOT_LOOPBACK: true;
    URL_SCHEME_REFUSED: true;
  }
}

export {};
