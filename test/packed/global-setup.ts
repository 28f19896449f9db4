/**
 * One `parcels sandbox serve` (the installed package's binary) for every test file of the run;
 * its URL and admin token reach the files through `inject('serve')`.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    serve: { url: string; adminToken: string };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminToken = `sbxadm_${randomBytes(18).toString('base64url')}`;
  const config = mkdtempSync(join(tmpdir(), 'packed-serve-'));
  const serve = spawn(process.execPath, ['node_modules/parcels/bin/parcels.js', 'sandbox', 'serve', '--port', '0', '--db', ':memory:'], {
    env: { ...process.env, PARCELS_CONFIG_DIR: config, PARCELS_SANDBOX_ADMIN_TOKEN: adminToken },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its banner stays out of the run's output; it is shown when the serve fails to start.
  let stderr = '';
  serve.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => serve.once('exit', resolve));
  // The first line of stdout is the URL, printed once the sandbox is ready.
  const firstLine = new Promise<string>((resolve) => createInterface({ input: serve.stdout }).once('line', resolve));
  const url = await Promise.race([firstLine, exited.then((code) => Promise.reject(new Error(`parcels sandbox serve exited ${code} before printing its URL:\n${stderr}`)))]);
  project.provide('serve', { url, adminToken });
  return async () => {
    serve.kill('SIGTERM');
    await exited;
    rmSync(config, { recursive: true, force: true });
  };
}
