// The CLI's error codes, added to core's `TallyErrorCodes` here (core names none of them).
declare module '../../core/errors.js' {
  interface TallyErrorCodes {
    AGENT_SURFACE_INVALID: true;
    AGENT_SURFACE_TAKEN: true;
    AGENT_UNKNOWN: true;
    AUTH_FAILED: true;
    CLEANUP_RUNNING: true;
    FAIL_OPEN_REASON_TAKEN: true;
    HEADER_INVALID: true;
    KEYWORD_EMPTY: true;
    LEDGER_COPY_SAME: true;
    LEDGER_UNAVAILABLE: true;
    LIMIT_INVALID: true;
    MCP_OPTION_INVALID: true;
    MCP_TOKEN_REQUIRED: true;
    MODE_CONFLICT: true;
    NO_RECORD_STORES: true;
    PACK_INVALID: true;
    PACK_MODULE_EMPTY: true;
    PACK_MODULE_UNLOADABLE: true;
    PACK_OPTION_INVALID: true;
    PACK_OPTION_MISSING: true;
    PACK_OPTION_UNKNOWN: true;
    PACK_TAKEN: true;
    PACK_TOOL_CLASH: true;
    PACK_UNKNOWN: true;
    QUERY_EMPTY: true;
    RECALL_EMPTY: true;
    STATS_CONTRIBUTOR_TAKEN: true;
    SURFACE_MODULE_EMPTY: true;
    SURFACE_MODULE_UNLOADABLE: true;
    TRANSPORT_UNKNOWN: true;
    USAGE: true;
  }
}

export {};
