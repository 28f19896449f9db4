import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempConfigDir } from './cli.js';
import { recordSpawnedHints } from './spawned-hints.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));

export interface Spawned {
  code: number;
  stdout: string;
  stderr: string;
}

/** A base environment for the built binary: no colour, a temp config dir, no proxy/CA noise. */
export function binaryEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', PARCELS_CONFIG_DIR: tempConfigDir(), ...extra };
  return env;
}

/** Runs the built `parcels` binary to completion; the hints it prints are replayed after the test (spawned-hints.ts). */
export function parcels(args: string[], opts: { env: NodeJS.ProcessEnv; input?: string }): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      recordSpawnedHints(args, opts.env, undefined, stderr);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

export interface ServedSandbox {
  url: string;
  /** Its config directory: where it writes its admin token file (`sandbox clock` run with it finds the token). */
  dir: string;
  stderr(): string;
  stop(): Promise<number>;
}

/** `parcels sandbox serve --port 0 --db :memory: --seed <file> …`, resolved once it prints its URL. */
export function serveSandbox(seed: unknown, extraArgs: string[] = []): Promise<ServedSandbox> {
  const dir = tempConfigDir();
  const seedFile = join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(seed));
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--db', ':memory:', '--seed', seedFile, ...extraArgs], {
    env: binaryEnv({ PARCELS_CONFIG_DIR: dir }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const line = stdout.split('\n')[0];
      if (stdout.includes('\n') && line) {
        resolve({
          url: line.trim(),
          dir,
          stderr: () => stderr,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`sandbox serve exited ${code} before listening: ${stderr}`)));
  });
}
