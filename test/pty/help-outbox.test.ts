/**
 * Issue 20 on a real terminal (the built CLI): the top-level help in sections, wrapped to 60, 100
 * and 200 columns without cutting a word; `outbox flush` as lines a person reads, not NDJSON.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/definitions/table.js';
import { hasPty, runCli } from '../helpers/pty.js';
import { FULL_KEY } from '../helpers/seed.js';
import { binaryEnv } from '../helpers/spawn.js';

describe.skipIf(!hasPty)('help and the outbox on a real terminal', () => {
  it('parcels --help fits 60, 100 and 200 columns, in sections, no description cut mid-word', async () => {
    for (const columns of [60, 100, 200]) {
      const { code, lines } = await runCli(['--help'], { env: binaryEnv(), columns });
      expect(code).toBe(0);
      const examples = lines.indexOf('Examples:');
      for (const line of lines.slice(0, examples)) expect(line.length, `${columns}: ${line}`).toBeLessThanOrEqual(columns);
      expect(lines).toContain('The local sandbox:');
      expect(lines).toContain('Bulk work and the outbox:');
      const words = new Set(lines.slice(0, examples).flatMap((l) => l.trim().split(/\s+/)));
      for (const def of COMMANDS) for (const word of def.summary.split(' ')) expect(words.has(word), `${columns}: "${word}" of ${def.path.join(' ')}`).toBe(true);
    }
  });

  it('outbox flush prints a line per entry and a summary by kind', async () => {
    const env = binaryEnv({ PARCELS_API_KEY: FULL_KEY });
    const queued = await runCli(['--sandbox', 'create', '--courier', 'DEMO-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '5', '--offline'], { env });
    expect(queued.code).toBe(75);
    const { code, lines } = await runCli(['--sandbox', 'outbox', 'flush'], { env, columns: 200 });
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^✓ #1 create DEMO-BIKE 1234AB 5: sent, parcel [0-9a-f-]{36}$/);
    expect(lines[1]).toMatch(/^✓ Outbox: 1 entry: 1 created \(1 parcel\), 0 failed; 0 still waiting in \d+\.\d s$/);
    expect(lines.join('\n')).not.toContain('{"line"');
  });
});
