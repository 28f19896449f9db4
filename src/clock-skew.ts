import { readClockSkew, writeClockSkew } from './config/clock-skew.js';
import { renderMessage } from './io/render.js';
import { SKEW_WARN_S, skewWarning } from './io/clock-skew.js';
import type { IO } from './io/streams.js';

/** Where a skew is kept: one service (target id of its base URL) and one profile. */
export interface SkewKey {
  target: string;
  profile: string;
}

/**
 * One command's view of the clock skew between this machine and the service: the skew kept from
 * earlier commands, the one measured from this command's answers (the client reports each), a
 * warning once above SKEW_WARN_S, and the latest kept for the next command when the command ends.
 */
export interface SkewTracker {
  /** Service clock minus ours, in seconds: measured in this command, else kept, else 0. */
  current(): Promise<number>;
  /** Called by the HTTP client with the skew measured from each answer's Date header. */
  measured(seconds: number): void;
  /** Waits for the warning to be written and keeps the latest measurement. */
  close(): Promise<void>;
}

export function skewTracker(init: {
  io: IO;
  env: NodeJS.ProcessEnv;
  /** Undefined when no skew applies (no base URL, or the embedded sandbox on this machine's clock). */
  key: () => Promise<SkewKey | undefined>;
}): SkewTracker {
  let kept: Promise<number | undefined> | undefined;
  let latest: number | undefined;
  let warned = false;
  const writes: Promise<void>[] = [];

  const keptSkew = (): Promise<number | undefined> => {
    kept ??= (async () => {
      const key = await init.key();
      if (key === undefined) return undefined;
      return readClockSkew(init.env, key.target, key.profile);
    })();
    return kept;
  };

  return {
    async current() {
      return latest ?? (await keptSkew()) ?? 0;
    },
    measured(seconds) {
      latest = seconds;
      if (warned || Math.abs(seconds) <= SKEW_WARN_S) return;
      warned = true;
      writes.push(
        (async () => {
          await renderMessage(init.io, skewWarning(seconds), 'warn');
        })(),
      );
    },
    async close() {
      await Promise.all(writes);
      if (latest === undefined) return;
      const key = await init.key();
      if (key === undefined || (await keptSkew()) === latest) return;
      // A failed write only costs the next command its correction.
      await writeClockSkew(init.env, key.target, key.profile, latest).catch(() => undefined);
    },
  };
}
