import { NetworkError } from '../../errors.js';
import type { SkewObservation } from '../../clock-skew/policy.js';
import { TEST_CLOCK_HEADER } from '../../schemas/headers.js';
import { statusPhrase } from '../failures.js';
import type { ApiRequest } from '../request.js';
import type { Answer, Outgoing, Transport } from './exchange.js';
import type { PoolGate } from './gate.js';
import type { Redaction } from './redaction.js';

/**
 * The request chain (shared/STYLE.md pattern 11; the shape of undici's interceptors and gh's
 * RoundTrippers): the exchange at the bottom (src/api/core/exchange.ts), and small pieces around it,
 * each `(next) => step`, composed once per client. A piece that is off is not in the chain.
 * Above these answer pieces, ApiClient (src/api/http.ts) adds dry-run recording, the headers, the
 * reading of an answer (answer.ts) and, outermost, the retry piece with admission
 * (src/api/core/retry.ts): for a one-shot request and a bulk line alike, counted as the caller says.
 *
 * From the outside in: pace (tell the gate what the answer states), trace (the one sanitised sink),
 * skew (the service's clock), redaction (the key masked on arrival), exchange.
 */

/** One attempt of a request as it goes down the chain. */
export interface Call {
  req: ApiRequest;
  out: Outgoing;
  /** 1 for the first attempt. */
  attempt: number;
  /** At most this many (Infinity when pauses do not count: a bulk line). */
  attempts: number;
}

export type Step = (call: Call) => Promise<Answer>;
export type Piece = (next: Step) => Step;

/** `bottom` wrapped in `pieces`, the first outermost; undefined pieces (turned off) are left out. */
export function compose(bottom: Step, pieces: readonly (Piece | undefined)[]): Step {
  let step = bottom;
  for (let i = pieces.length - 1; i >= 0; i--) {
    const piece = pieces[i];
    if (piece !== undefined) step = piece(step);
  }
  return step;
}

export function exchangeStep(transport: Transport): Step {
  return (call) => transport.exchange(call.out);
}

/**
 * The key masked in what arrives, before any other piece sees it: every header value in any
 * encoding, and the raw body (its decoded strings are masked once it is parsed, answer.ts). With
 * `lean` (a bulk line's chain), a success keeps only its entry id, and only that is masked (answer.ts).
 */
export function redactionPiece(redaction: Redaction, lean: boolean): Piece {
  const failed = (error: unknown): never => {
    if (error instanceof NetworkError) throw new NetworkError(redaction.text(error.message), error.code, error.hint);
    throw error;
  };
  const arrived = (answer: Answer): Answer => {
    // A lean success keeps nothing shown but its entry id: its replay flag and pace are read, never printed.
    if (lean && answer.status >= 200 && answer.status < 300) return answer;
    const headers: Record<string, string> = {};
    for (const name of Object.keys(answer.headers)) headers[redaction.text(name)] = redaction.text(answer.headers[name] as string);
    return { status: answer.status, headers, text: redaction.raw(answer.text) };
  };
  return (next) => (call) => next(call).then(arrived, failed);
}

/** Tells `observe` the service clock minus ours (seconds) from each answer's Date header. */
export function skewPiece(now: () => number, observe: (observation: SkewObservation) => void): Piece {
  return (next) => async (call) => {
    const answer = await next(call);
    const date = answer.headers.date;
    const serverMs = date === undefined ? Number.NaN : Date.parse(date);
    if (!Number.isNaN(serverMs)) {
      observe({
        // The Date header is cut to the whole second, so the service's clock is up to 1 s past what
        // it says: rounding up lands on the true skew. `+ 0` turns a -0 into 0.
        seconds: Math.ceil((serverMs - now()) / 1000) + 0,
        // Only the service's own answer, just made, tells its clock: not an error page, not a cached copy.
        fresh: answer.status >= 200 && answer.status < 300 && answer.headers.age === undefined,
        testClock: answer.headers[TEST_CLOCK_HEADER.toLowerCase()] !== undefined,
      });
    }
    return answer;
  };
}

/** Bodies in --verbose traces are cut after this many characters. */
const TRACE_BODY_CHARS = 2048;

function truncated(text: string): string {
  return text.length <= TRACE_BODY_CHARS ? text : `${text.slice(0, TRACE_BODY_CHARS)}… (${text.length - TRACE_BODY_CHARS} more characters)`;
}

export interface TraceSink {
  /** The service's origin, in front of each request's target. */
  origin: string;
  /** One line (the client's sanitised sink; never given the key). */
  line(text: string): void;
  /** The request's headers as shown (the key masked). */
  shownHeaders(req: ApiRequest): Record<string, string>;
  /** A text from the service as shown: masked in any encoding. */
  shown(text: string): string;
}

/** --verbose: each attempt's request and its answer (or failure), one line each. */
export function tracePiece(sink: TraceSink): Piece {
  return (next) => async (call) => {
    const { req, out } = call;
    sink.line(`> ${req.method} ${sink.origin}${out.target}${call.attempt > 1 ? ` (attempt ${call.attempt}${Number.isFinite(call.attempts) ? `/${call.attempts}` : ''})` : ''}`);
    for (const [name, value] of Object.entries(sink.shownHeaders(req))) sink.line(`> ${name}: ${value}`);
    if (out.body !== undefined) sink.line(`> ${truncated(out.body.toString('utf8'))}`);
    const started = performance.now();
    try {
      const answer = await next(call);
      sink.line(`< ${answer.status} ${statusPhrase(answer.status)} (${Math.round(performance.now() - started)} ms)`);
      for (const [name, value] of Object.entries(answer.headers)) sink.line(`< ${name}: ${value}`);
      if (answer.text !== '') sink.line(`< ${truncated(sink.shown(answer.text))}`);
      return answer;
    } catch (error) {
      if (error instanceof NetworkError) sink.line(`< ${error.code}: ${error.message} (${Math.round(performance.now() - started)} ms)`);
      throw error;
    }
  };
}

/**
 * The pace half of admission: the gate learns the rate-limit fields of every answer (admission
 * itself is in the retry piece), with when its request left. That time is the one closure per
 * attempt a bulk line's chain keeps: without it an older count answered late could not be told
 * from the next window's.
 */
export function pacePiece(gate: PoolGate): Piece {
  return (next) => (call) => {
    const sentAt = gate.timing.now();
    return next(call).then((answer) => {
      gate.observe(answer.headers, sentAt);
      return answer;
    });
  };
}
