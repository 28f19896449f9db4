import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { compileJq, renderJq, renderJqStream } from '../../src/io/jq.js';
import { captureIO } from '../helpers/io.js';

async function* slowly(items: unknown[]): AsyncGenerator<unknown> {
  for (const item of items) yield item;
}

describe('--jq filter', () => {
  it('prints one result per line, compact JSON, strings raw', async () => {
    const filter = await compileJq('.a[], .s, {n: .n}');
    const { io, stdout } = captureIO({ env: {} });
    await renderJq(io, filter, { a: [1, null, true], s: 'two\twords', n: 1.5 });
    expect(stdout()).toBe('1\nnull\ntrue\ntwo\twords\n{"n":1.5}\n');
  });

  it('on a terminal, control characters in raw strings are shown inert', async () => {
    const filter = await compileJq('.s');
    const { io, stdout } = captureIO({ env: {}, tty: true });
    await renderJq(io, filter, { s: 'red\u001b[31m alert\u0007' });
    expect(stdout()).toBe('red[31m alert\n');
  });

  it('a syntax error is a usage error at compile time', async () => {
    await expect(compileJq('.a |')).rejects.toThrow(UsageError);
    await expect(compileJq('.a |')).rejects.toThrow(/^--jq jq: error: syntax error, unexpected end of file/);
  });

  it('an input-dependent error waits for the data, and keeps the results before it', async () => {
    const filter = await compileJq('.[]');
    const { io, stdout } = captureIO({ env: {} });
    await expect(renderJqStream(io, filter, slowly([[1], [2], 'x', [4]]))).rejects.toThrow('--jq jq: error: Cannot iterate over string ("x")');
    expect(stdout()).toBe('1\n2\n');
  });

  it('a trailing comment in the expression does not break it', async () => {
    const filter = await compileJq('.a # the a field');
    expect(await filter.run([{ a: 1 }])).toEqual({ lines: ['1'] });
  });

  it('keeps working far past the ~310 runs after which one jq-wasm instance breaks', async () => {
    const filter = await compileJq('.id');
    for (let i = 0; i < 400; i++) expect(await filter.run([{ id: i }])).toEqual({ lines: [String(i)] });
  });

  it('streams many items, each filtered once, in order', async () => {
    const filter = await compileJq('select(.n % 1000 == 0) | .n');
    const { io, stdout } = captureIO({ env: {} });
    const { count } = await renderJqStream(io, filter, slowly(Array.from({ length: 10_000 }, (_, n) => ({ n }))));
    expect(count).toBe(10_000);
    expect(stdout()).toBe('0\n1000\n2000\n3000\n4000\n5000\n6000\n7000\n8000\n9000\n');
  });
});
