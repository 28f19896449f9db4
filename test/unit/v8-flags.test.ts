import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BULK_HEAP_FLAGS, withYoungGenerationGrowing } from '../../src/bulk/heap.js';

// v8.setFlagsFromString ignores a flag V8 no longer knows: a Node upgrade that drops or renames the
// bulk run's heap flags would silently undo it. Node's own command line refuses unknown V8 flags.
// The request core sets --liftoff-only before undici loads (src/api/core/transport.ts).
describe('the V8 flags the CLI sets at run time', () => {
  it.each([...BULK_HEAP_FLAGS, '--liftoff-only'])('%s is one this Node still accepts', (flag) => {
    const run = spawnSync(process.execPath, [flag, '-e', 'process.stdout.write("ok")'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('ok');
    expect(run.status).toBe(0);
  });

  it('an unknown flag is refused, so the check above can fail', () => {
    const run = spawnSync(process.execPath, [`${BULK_HEAP_FLAGS[0].replace('=', 'x=')}`, '-e', '0'], { encoding: 'utf8' });
    expect(run.status).toBe(9);
    expect(run.stderr).toContain('bad option: --heap-growing-percentx=10');
  });
});

describe('withYoungGenerationGrowing', () => {
  it('answers what the read answers, and passes its failure on', async () => {
    await expect(withYoungGenerationGrowing(async () => 42)).resolves.toBe(42);
    await expect(withYoungGenerationGrowing(() => Promise.reject(new Error('read failed')))).rejects.toThrow('read failed');
  });
});
