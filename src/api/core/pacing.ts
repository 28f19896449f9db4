/**
 * The service's pace, read from the rate-limit fields of an answer: `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (delta seconds, draft-ietf-httpapi-ratelimit-headers
 * up to -06, what the sandbox sends), or the later structured `RateLimit` (`limit=, remaining=,
 * reset=` in -07; `"name";r=;t=` from -08 on) with `RateLimit-Policy` (`q=` or its leading quota).
 * The spec shows no thresholds: a service that sends none is simply not paced.
 */

export interface Pace {
  /** Requests left in the current window. */
  remaining: number;
  /** Until the window resets, as the service says (unbounded here: the gate bounds it). */
  resetMs: number;
  /** Requests per window, when the service says. */
  limit: number | undefined;
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function wholeNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  return /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** The named parameters of each list member of a structured field (`r=5;t=7` or `remaining=5`). */
function members(field: string): Map<string, string>[] {
  return field.split(',').map((member) => {
    const params = new Map<string, string>();
    for (const part of member.split(';')) {
      const eq = part.indexOf('=');
      if (eq === -1) {
        const bare = part.trim();
        if (/^\d+$/.test(bare)) params.set('quota', bare);
      } else {
        params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
      }
    }
    return params;
  });
}

/** Joins the members of a -07 field written as one list (`limit=10, remaining=5, reset=7`). */
function merged(list: Map<string, string>[]): Map<string, string>[] {
  if (list.every((m) => m.size === 1 && !m.has('r') && !m.has('t'))) return [new Map(list.flatMap((m) => [...m]))];
  return list;
}

function structured(headers: Headers): Pace | undefined {
  const field = first(headers.ratelimit);
  if (field === undefined) return undefined;
  let best: Pace | undefined;
  const policy = first(headers['ratelimit-policy']);
  const quota = policy === undefined ? undefined : merged(members(policy)).map((m) => wholeNumber(m.get('q') ?? m.get('quota') ?? m.get('limit')))[0];
  for (const params of merged(members(field))) {
    const remaining = wholeNumber(params.get('r') ?? params.get('remaining'));
    const reset = wholeNumber(params.get('t') ?? params.get('reset'));
    if (remaining === undefined || reset === undefined) continue;
    // Several policies: the one with the fewest requests left decides.
    if (best === undefined || remaining < best.remaining) {
      best = { remaining, resetMs: reset * 1000, limit: wholeNumber(params.get('limit')) ?? quota };
    }
  }
  return best;
}

/** The pace an answer's headers (lower-case names) state, or undefined when they state none. */
export function readPace(headers: Headers): Pace | undefined {
  const remaining = wholeNumber(first(headers['ratelimit-remaining']));
  const reset = wholeNumber(first(headers['ratelimit-reset']));
  if (remaining !== undefined && reset !== undefined) {
    return { remaining, resetMs: reset * 1000, limit: wholeNumber(first(headers['ratelimit-limit'])) };
  }
  return structured(headers);
}
