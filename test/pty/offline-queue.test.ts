/**
 * Issue 30, "offline without knowing the flag", at a real terminal: an `events add` whose service
 * cannot be reached (a loopback port the OS gave out and took back) prints the hint that queues it;
 * the hint, pasted into the same shell, queues it (exit 75).
 */
import { describe, expect, it } from 'vitest';
import { hasPty, startShell, typedCommand } from '../helpers/pty.js';
import { hintedCommands } from '../helpers/hint-replay.js';
import { FULL_KEY } from '../helpers/seed.js';
import { binaryEnv } from '../helpers/spawn.js';
import { closedPortUrl } from '../commands/harness.js';

const PARCEL = '3f1c9a2b-0000-4000-8000-000000000000';

describe.skipIf(!hasPty)('an offline write at a terminal', () => {
  it('events add prints the hint that queues it; pasted into the shell, it queues (exit 75)', async () => {
    const url = await closedPortUrl();
    const term = startShell({ env: binaryEnv({ PARCELS_BASE_URL: url, PARCELS_API_KEY: FULL_KEY }) });
    const failed = await typedCommand(term, `parcels events add ${PARCEL} --status in_delivery --retries 0`);
    expect(failed.code).toBe(8);
    const printed = failed.lines.join('\n');
    expect(printed).toMatch(
      new RegExp(
        `^Error: connection refused: connect ECONNREFUSED ${url.slice('http://'.length)}\\n` +
          `Hint: \`parcels events add ${PARCEL} --status in_delivery --retries 0 --at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ --queue\` ` +
          'keeps it in the outbox to send later \\(exit 75; `parcels config set queue_writes yes` makes that the default\\)$',
      ),
    );
    const hint = /`(parcels events add [^`]+)`/.exec(printed)?.[1] as string;
    expect(hintedCommands(printed)[0]?.at(-1)).toBe('--queue');

    const queued = await typedCommand(term, hint);
    expect(queued).toEqual({ code: 75, lines: ['! queued (1 waiting); `parcels outbox flush` sends it'] });
    const listed = await typedCommand(term, 'parcels outbox -q');
    expect(listed).toEqual({ code: 0, lines: ['1'] });
    term.type('exit\r');
    expect(await term.exited).toBe(0);
  });
});
