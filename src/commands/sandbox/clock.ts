import type { ClockAction } from '../../schemas/sandbox-admin.js';
import { UsageError } from '../../errors.js';
import { parseDuration } from '../../schemas/duration.js';
import { presentResource } from '../../io/present/resource.js';
import { forPeople } from '../../io/present.js';
import type { ClockStatus } from '../../schemas/sandbox-admin.js';
import { spokenDuration } from '../../schemas/time-text.js';
import { isRecord } from '../../schemas/record.js';
import { beyondNoise } from '../../clock-skew/policy.js';
import type { sandboxCommands } from '../../definitions/sandbox.js';
import { defineCommand } from '../../command-kit/types.js';
import { sandboxAdmin } from '../../sandbox-admin.js';

export interface ClockOptions {
  /** undefined: show the clock. */
  action: ClockAction | undefined;
  body: Record<string, unknown>;
}

const ACTIONS = ['show', 'advance', 'set', 'freeze', 'resume', 'speed'] as const;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?(Z|[+-]\d\d:\d\d)$/;

/** `set` takes ISO 8601 with a zone (seconds optional) or Unix seconds; answers epoch milliseconds. */
function parseTime(value: string): number {
  const ms = /^\d{1,12}$/.test(value) ? Number(value) * 1000 : ISO_TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isSafeInteger(ms)) throw new UsageError(`clock set takes an ISO 8601 time with a zone, e.g. 2026-12-01T09:00Z, or Unix seconds (got "${value}")`, 'set');
  return ms;
}

function needsValue(action: string, value: string | undefined, example: string): string {
  if (value === undefined || value === '') throw new UsageError(`clock ${action} needs a value, e.g. parcels sandbox clock ${action} ${example}`, action);
  return value;
}

export default defineCommand<typeof sandboxCommands.sandboxClock, ClockOptions>({
  parse({ args }) {
    const [action = 'show', value] = args;
    if (!(ACTIONS as readonly string[]).includes(action)) {
      throw new UsageError(`unknown clock action "${action}"; use one of ${ACTIONS.join(', ')}`, 'action');
    }
    if ((action === 'show' || action === 'freeze' || action === 'resume') && value !== undefined) {
      throw new UsageError(`clock ${action} takes no value (got "${value}")`, action);
    }
    switch (action) {
      case 'advance': {
        const text = needsValue(action, value, '36h');
        const ms = parseDuration(text);
        if (ms === undefined) throw new UsageError(`clock advance takes a duration like 90s, 15m, 36h or 2d (got "${text}"); the clock only moves forward`, 'advance');
        return { action, body: { ms } };
      }
      case 'set':
        return { action, body: { to: parseTime(needsValue(action, value, '2026-12-01T09:00Z')) } };
      case 'speed': {
        const text = needsValue(action, value, '600');
        const speed = Number(text);
        if (!/^\d+(\.\d+)?$/.test(text) || speed <= 0 || speed > 1_000_000) throw new UsageError(`clock speed takes a number above 0 and at most 1000000 (got "${text}")`, 'speed');
        return { action, body: { speed } };
      }
      case 'freeze':
      case 'resume':
        return { action, body: {} };
      default:
        return { action: undefined, body: {} };
    }
  },

  async run({ action, body }, ctx) {
    const admin = await sandboxAdmin(ctx);
    try {
      const status = action === undefined ? await admin.clock() : await admin.moveClock(action, body);
      // Scripts get the admin route's record as it came; a person the time first, and how far it is moved.
      await presentResource(ctx, forPeople(ctx) ? clockForPeople(status, ctx.now()) : status);
    } finally {
      await admin.close();
    }
  },
});

/**
 * The clock as a person reads it: its time, how far it is from this machine's, frozen, speed; the
 * milliseconds last. An answer not of the admin route's shape is shown as it came.
 */
export function clockForPeople(answer: unknown, machineNow: number): unknown {
  if (!isRecord(answer) || typeof answer.now_ms !== 'number' || typeof answer.now !== 'string') return answer;
  const status = answer as unknown as ClockStatus;
  // Within the measurement's error (a second's rounding either side) the two clocks are in step.
  const apart = beyondNoise(Math.round(status.now_ms / 1000) - machineNow);
  const moved = apart === 0 ? 'in step with this machine' : `${spokenDuration(Math.abs(apart))} ${apart > 0 ? 'ahead of' : 'behind'} this machine`;
  return { now: status.now, moved, frozen: status.frozen, speed: status.speed, now_ms: status.now_ms };
}
