// The MCP server's error codes, added to core's `TallyErrorCodes` here (core names none of them).
declare module '../../core/errors.js' {
  interface TallyErrorCodes {
    FISHERMAN_NEEDS_INPUT: true;
    MCP_TOKEN_REQUIRED: true;
  }
}

export {};
