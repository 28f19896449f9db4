import { shellQuote } from '../hint/shell.js';
import { TIME_FIELDS } from '../schemas/record-fields.js';
import { isRecord } from '../schemas/record.js';
import { isoSeconds } from '../schemas/time-text.js';
import type { HttpMethod } from './request.js';

/** --dry-run: the requests a command would send, as data, as text and as a runnable curl command. */

export interface RequestDescription {
  method: HttpMethod;
  url: string;
  /** As they would be sent, Authorization masked with a fixed-width placeholder. */
  headers: Record<string, string>;
  /** The exact text of the body. */
  body?: string;
  /**
   * A runnable curl command that reads the key (from $PARCELS_API_KEY, or the CredentialSource
   * given) without putting it on any argv. Absent for the embedded `--sandbox`, whose port closes
   * when the command ends.
   */
  curl?: string;
}

/** Collects every request a client in recording mode would have sent. */
export interface DryRunRecorder {
  record(description: RequestDescription): void;
  /** Everything recorded so far, in order (the data for `--dry-run --json`). */
  readonly requests: readonly RequestDescription[];
}

/**
 * Where a dry run's curl line reads the credential from, never printing it: a shell expression and
 * the comment printed above the line. Default: the customer key, `$PARCELS_API_KEY`.
 */
export interface CredentialSource {
  shell: string;
  note: string;
}

/** The customer key from the environment, where the command found it. */
export const API_KEY_SOURCE: CredentialSource = {
  shell: '"$PARCELS_API_KEY"',
  note: '# the key is read from PARCELS_API_KEY, as this command read it',
};

/**
 * The profile's key, read by `tokenCommand` (the user's own `parcels auth token` with their
 * --profile/--base-url, from src/hint/hint.ts) inside the curl line as it runs: nothing is exported,
 * so neither the shell's other commands nor a later `-p` are changed by it.
 */
export function profileKeySource(tokenCommand: string): CredentialSource {
  return { shell: `"$(${tokenCommand})"`, note: `# \`${tokenCommand}\` hands over the profile's key as the line runs: no variable is set` };
}

/**
 * A recorder that also writes each request, as `formatDescription` prints it, to `write` (when
 * given). `embedded`: the requests go to the `--sandbox` started for this command alone, so they
 * are recorded without a curl command (nothing answers on that port once the command ends).
 * `credential`: where the printed curl line reads the credential.
 */
export function dryRunRecorder(write?: (text: string) => void, opts: { embedded?: boolean; credential?: CredentialSource } = {}): DryRunRecorder {
  const credential = opts.credential ?? API_KEY_SOURCE;
  const requests: RequestDescription[] = [];
  return {
    requests,
    record(description) {
      const recorded: RequestDescription = opts.embedded === true ? { method: description.method, url: description.url, headers: description.headers, ...(description.body === undefined ? {} : { body: description.body }) } : description;
      requests.push(recorded);
      write?.(formatDescription(recorded, credential));
    },
  };
}

/** Said instead of a curl command for the embedded `--sandbox`. */
export const EMBEDDED_NOTE =
  '# no curl command: the --sandbox this command started stops with it; `parcels sandbox serve` runs one that stays, for --base-url';

/**
 * The curl command for a request. The Authorization header goes to curl on stdin (`-H @-`) from
 * printf, a shell builtin, so the key is on no process's command line (argv is world-readable).
 */
export function curlCommand(
  method: HttpMethod,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  credential: CredentialSource = API_KEY_SOURCE,
): string {
  const parts = ['curl', '-sS'];
  if (method === 'HEAD') parts.push('-I');
  else if (method !== 'GET') parts.push('-X', method);
  parts.push(shellQuote(url));
  let keyFromStdin = false;
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'User-Agent') continue;
    if (name === 'Authorization') {
      keyFromStdin = true;
      parts.push('-H', '@-');
    } else parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (body !== undefined) parts.push('--data-binary', shellQuote(body));
  const curl = parts.join(' ');
  return keyFromStdin ? `printf 'Authorization: Bearer %s\\n' ${credential.shell} | ${curl}` : curl;
}

/** The body as JSON holds it, when it is JSON (a person and `--dry-run --json` read it so); else its text. */
function bodyValue(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** A request as `--dry-run --json` prints it: the body as a JSON value, not a string holding one. */
export function requestData(d: RequestDescription): Omit<RequestDescription, 'body'> & { body?: unknown } {
  return d.body === undefined ? d : { ...d, body: bodyValue(d.body) };
}

/** `# occurred_at 1795770000 = 2026-11-27T09:00:00Z`: each time field of a JSON body, readable beside its number. */
function timeNotes(body: string): string[] {
  const value = bodyValue(body);
  const fields = isRecord(value) ? [value, ...Object.values(value).filter(isRecord)] : [];
  return fields.flatMap((record) =>
    TIME_FIELDS.flatMap((name) => {
      const seconds = record[name];
      return typeof seconds === 'number' && Number.isSafeInteger(seconds) ? [`# ${name} ${seconds} = ${isoSeconds(seconds)}`] : [];
    }),
  );
}

/** Human-readable form of a description, as printed by --dry-run. */
export function formatDescription(d: RequestDescription, credential: CredentialSource = API_KEY_SOURCE): string {
  const lines = [`${d.method} ${d.url}`, ...Object.entries(d.headers).map(([n, v]) => `${n}: ${v}`)];
  if (d.body !== undefined) lines.push('', d.body, ...timeNotes(d.body));
  lines.push('');
  if (d.curl === undefined) {
    lines.push(EMBEDDED_NOTE, '');
    return lines.join('\n');
  }
  if (d.headers.Authorization !== undefined) lines.push(credential.note);
  lines.push(d.curl, '');
  return lines.join('\n');
}
