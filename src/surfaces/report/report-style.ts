/** The report's only style sheet: inline, system fonts, light and dark from the system. */
export const REPORT_STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #ffffff; --muted: #59636e; --line: #d1d9e0;
  --good: #1a7f37; --warn: #9a6700; --bad: #cf222e; --code: #f6f8fa; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d;
    --good: #3fb950; --warn: #d29922; --bad: #f85149; --code: #161b22; }
}
body { margin: 0 auto; max-width: 1200px; padding: 24px; font: 14px/1.5 system-ui, sans-serif;
  color: var(--fg); background: var(--bg); }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 8px; }
code, pre { font-family: ui-monospace, monospace; font-size: 12px; }
pre { background: var(--code); padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; }
.meta, .via { color: var(--muted); } .task { font-size: 15px; } .summary { border-left: 3px solid var(--line); padding-left: 8px; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; vertical-align: top;
  border-bottom: 1px solid var(--line); padding: 4px 8px; }
th { color: var(--muted); font-weight: 600; }
.good { color: var(--good); } .warn { color: var(--warn); } .bad { color: var(--bad); }
.badge { font-weight: 700; text-transform: uppercase; border: 1px solid currentColor; border-radius: 4px; padding: 0 6px; }
details summary { cursor: pointer; color: var(--muted); }
`;
