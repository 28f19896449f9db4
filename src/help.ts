/** Help topics beyond commander's per-command help: `parcels help exit-codes`, `parcels help environment`. */
const TOPICS: Record<string, string> = {
  'exit-codes': `Exit codes (stable; scripts may rely on them):

  0    success
  1    unexpected failure (a bug, or an error with no better code)
  2    invalid usage or input rejected before sending: nothing was sent
  3    authentication or permission: 401 (invalid or expired key), 403 (missing scope or verification)
  4    not found: 404
  5    conflict or stale precondition: 409 (Idempotency-Key reused with another body), 412 (stale or missing If-Match)
  6    rejected by the service's validation: 400, 422, and any other 4xx
  7    rate limited: 429 still answered after all retries
  8    service unavailable: 5xx or a network failure after all retries
  130  interrupted (Ctrl-C)

With --output json (or --json), errors are one JSON line on stderr:
  {"error":{"status":422,"code":"validation_failed","message":"…","exit_code":6}}
`,
  environment: `Environment variables:

  PARCELS_PROFILE      profile to use (flag --profile wins)
  PARCELS_BASE_URL     API base URL (flag --base-url wins)
  PARCELS_API_KEY      API key; overrides the profile's saved key (there is never a flag for the key)
  PARCELS_OUTPUT       default output: table, json, ndjson or csv (flag --output/--json wins)
  PARCELS_TIMEOUT      per-request timeout in seconds (flag --timeout wins)
  PARCELS_RETRIES      retries on network errors, 429 and 5xx (flag --retries wins)
  PARCELS_CONFIG_DIR   directory for config.json (mode 0600), the ETag cache and the --sandbox database
  NO_COLOR             any non-empty value turns colour off (as does --no-color)
  FORCE_COLOR          1 forces colour on, 0 forces it off

Precedence: flag > environment > profile (config.json) > built-in default.
`,
};

export function helpTopic(name: string): string | undefined {
  return TOPICS[name];
}
