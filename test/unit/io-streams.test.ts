import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { isClosed, readAll, shouldColour, writeOut } from '../../src/io/streams.js';
import { captureIO } from '../helpers/io.js';

describe('shouldColour', () => {
  it('colours a TTY only', () => {
    expect(shouldColour({ isTTY: true, env: {} })).toBe(true);
    expect(shouldColour({ isTTY: false, env: {} })).toBe(false);
  });
  it('never with --no-color or a non-empty NO_COLOR, even with FORCE_COLOR', () => {
    expect(shouldColour({ isTTY: true, env: {}, noColor: true })).toBe(false);
    expect(shouldColour({ isTTY: true, env: { NO_COLOR: '1' } })).toBe(false);
    expect(shouldColour({ isTTY: true, env: { NO_COLOR: '1', FORCE_COLOR: '1' } })).toBe(false);
    expect(shouldColour({ isTTY: false, env: { FORCE_COLOR: '1' }, noColor: true })).toBe(false);
  });
  it('ignores an empty NO_COLOR', () => {
    expect(shouldColour({ isTTY: true, env: { NO_COLOR: '' } })).toBe(true);
  });
  it('honours FORCE_COLOR=1 / 0 and TERM=dumb', () => {
    expect(shouldColour({ isTTY: false, env: { FORCE_COLOR: '1' } })).toBe(true);
    expect(shouldColour({ isTTY: true, env: { FORCE_COLOR: '0' } })).toBe(false);
    expect(shouldColour({ isTTY: true, env: { FORCE_COLOR: 'false' } })).toBe(false);
    expect(shouldColour({ isTTY: true, env: { TERM: 'dumb' } })).toBe(false);
  });
});

/** A slow sink: highWaterMark 1, every write completes after a delay. */
function slowSink(delayMs: number) {
  const received: string[] = [];
  let waitingForDrain = false;
  let violations = 0;
  let falseReturns = 0;
  const sink = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _enc, cb) {
      received.push(chunk.toString());
      setTimeout(cb, delayMs);
    },
  });
  const write = sink.write.bind(sink) as (chunk: string, cb?: (err?: Error | null) => void) => boolean;
  (sink as unknown as { write: typeof write }).write = (chunk, cb) => {
    if (waitingForDrain) violations++;
    const ok = write(chunk, cb);
    if (!ok) {
      falseReturns++;
      waitingForDrain = true;
    }
    return ok;
  };
  sink.on('drain', () => {
    waitingForDrain = false;
  });
  return { sink, received, stats: () => ({ violations, falseReturns }) };
}

describe('writeOut', () => {
  it('waits for drain when write() returns false', async () => {
    const { sink, received, stats } = slowSink(5);
    for (let i = 0; i < 10; i++) await writeOut(sink, `chunk ${i}\n`);
    expect(stats().falseReturns).toBeGreaterThan(0);
    expect(stats().violations).toBe(0);
    // 'finish': every write handed over has been taken by the sink.
    await new Promise<void>((resolve) => sink.end(resolve));
    expect(received.join('')).toBe(Array.from({ length: 10 }, (_, i) => `chunk ${i}\n`).join(''));
  });

  it('ends quietly on EPIPE and drops later writes', async () => {
    let writes = 0;
    const sink = new Writable({
      write(_chunk, _enc, cb) {
        writes++;
        cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    await expect(writeOut(sink, 'a\n')).resolves.toBeUndefined();
    await new Promise((r) => setImmediate(r));
    expect(isClosed(sink)).toBe(true);
    await expect(writeOut(sink, 'b\n')).resolves.toBeUndefined();
    expect(writes).toBe(1);
  });

  it('tolerates EPIPE emitted while waiting for drain', async () => {
    const sink = new Writable({
      highWaterMark: 1,
      write(_chunk, _enc, cb) {
        setTimeout(() => cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })), 5);
      },
    });
    await expect(writeOut(sink, 'long enough to fill the buffer\n')).resolves.toBeUndefined();
    expect(isClosed(sink)).toBe(true);
  });

  it('rejects on other write errors', async () => {
    const sink = new Writable({
      write(_chunk, _enc, cb) {
        cb(Object.assign(new Error('disk full'), { code: 'ENOSPC' }));
      },
    });
    await expect(writeOut(sink, 'a')).rejects.toThrow('disk full');
  });
});

describe('readAll and captureIO', () => {
  it('reads a stream to the end as UTF-8', async () => {
    const euro = Buffer.from('€', 'utf8');
    const stream = Readable.from([Buffer.from('a'), euro.subarray(0, 1), euro.subarray(1), Buffer.from('b')]);
    expect(await readAll(stream)).toBe('a€b');
  });
  it('captureIO collects stdout and stderr apart and serves stdin', async () => {
    const { io, stdout, stderr } = captureIO({ stdin: '{"a":1}' });
    await writeOut(io.stdout, 'out');
    await writeOut(io.stderr, 'err');
    expect(stdout()).toBe('out');
    expect(stderr()).toBe('err');
    expect(await readAll(io.stdin)).toBe('{"a":1}');
    expect(io.stdinIsTTY).toBe(false);
    expect(io.stdoutIsTTY).toBe(false);
    expect(io.colour).toBe(false);
  });
});

describe('systemIO', async () => {
  const { systemIO } = await import('../../src/io/streams.js');
  it('wraps the process streams; --no-color turns colour off', () => {
    const io = systemIO({ noColor: true });
    expect(io.stdout).toBe(process.stdout);
    expect(io.stderr).toBe(process.stderr);
    expect(io.colour).toBe(false);
    expect(io.stderrColour).toBe(false);
    expect(io.columns).toBeGreaterThan(0);
    expect(io.stdoutIsTTY).toBe(process.stdout.isTTY === true);
  });
});
