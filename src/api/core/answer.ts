import { ApiError, NetworkError } from '../../errors.js';
import { isRecord } from '../../schemas/record.js';
import type { Answer } from './exchange.js';
import { codeForStatus, errorDetails, statusPhrase } from '../failures.js';
import { parseRetryAfter } from './policy.js';
import type { Redaction } from './redaction.js';

/** What an answer means: the envelope of a 2xx, or the ApiError of any other status. The reading piece of the request chain. */

export interface Success {
  /** The parsed envelope (undefined for an empty body). */
  body: unknown;
  /** `body.data`. */
  data: unknown;
}

/** `data.entry_id` of an envelope when it is a string. */
export function entryIdOf(data: unknown): string | undefined {
  if (!isRecord(data)) return undefined;
  const id = data.entry_id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * A 2xx answer's envelope, or the ApiError for another status (returned, not thrown). A 2xx whose
 * body is not JSON throws a NetworkError. `nowMs` reads an HTTP-date Retry-After when the answer
 * carries no Date header of its own. Every decoded string of the body is masked by `redaction`
 * (and its depth bounded) before anything reads it; of a `lean` success (a bulk line) only
 * `data.entry_id` is kept, masked on its own.
 */
export function interpretAnswer(answer: Answer, nowMs: () => number, redaction: Redaction, lean = false): Success | ApiError {
  let body: unknown;
  let parsed = true;
  const success = answer.status >= 200 && answer.status < 300;
  if (answer.text.trim() !== '') {
    try {
      body = JSON.parse(answer.text);
    } catch {
      parsed = false;
    }
  }
  if (success) {
    if (!parsed) throw new NetworkError(`the service answered ${answer.status} with a body that is not JSON`, 'bad_response');
    if (lean) {
      const entryId = entryIdOf(isRecord(body) ? body.data : undefined);
      return { body: undefined, data: entryId === undefined ? undefined : { entry_id: redaction.text(entryId) } };
    }
    body = redaction.parsed(body, answer.text);
    return { body, data: isRecord(body) ? body.data : undefined };
  }
  if (parsed) body = redaction.parsed(body, answer.text);
  // An HTTP-date is read against the service's own Date header when it sends one: immune to clock skew.
  const serverNow = Date.parse(answer.headers.date ?? '');
  const retryAfter = parseRetryAfter(answer.headers['retry-after'], Number.isNaN(serverNow) ? nowMs() : serverNow);
  if (answer.status >= 300 && answer.status < 400) {
    const location = answer.headers.location;
    return new ApiError(
      answer.status,
      codeForStatus(answer.status),
      `the service answered ${answer.status} ${statusPhrase(answer.status)}${location ? ` to ${location}` : ''}; redirects are not followed`,
      parsed ? body : undefined,
      retryAfter,
      'check the base URL: the API key is only ever sent to the configured base URL',
    );
  }
  const { code, message } = errorDetails(answer.status, parsed ? body : undefined);
  return new ApiError(answer.status, code, message, parsed ? body : undefined, retryAfter);
}
