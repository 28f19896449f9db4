/**
 * A client generated from the served GET /openapi.json (openapi-typescript, the usual generator)
 * types the response fields the spec shows: `data.entry_id` and `data.next_cursor` compile, the
 * rest of `data` reads as unknown, and an error body is a generic object.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

const CLIENT = `
import type { paths } from './api.js';

type Body<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

export function createdId(body: Body<'/deliveries/v1/parcels', 'post', 201>): string | undefined {
  return body.data.entry_id;
}
export function nextPage(body: Body<'/deliveries/v1/parcels', 'get', 200>): string | null | undefined {
  return body.data.next_cursor;
}
export function items(body: Body<'/deliveries/v1/parcels', 'get', 200>): unknown {
  return body.data['parcels'];
}
export function errorCode(body: Body<'/deliveries/v1/parcels/{id}', 'get', 404>): unknown {
  return body['error'];
}
`;

/** tsc's diagnostics for the generated types plus `client`, under strict consumer settings. */
async function compile(client: string): Promise<string[]> {
  const document = (await (await fetch(`${sandbox.url}/openapi.json`)).json()) as Parameters<typeof openapiTS>[0];
  const dir = mkdtempSync(join(tmpdir(), 'parcels-openapi-client-'));
  writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(document)));
  writeFileSync(join(dir, 'client.ts'), client);
  const program = ts.createProgram([join(dir, 'client.ts')], {
    strict: true,
    exactOptionalPropertyTypes: true,
    noPropertyAccessFromIndexSignature: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    // The generated types need only the language's core; the smallest library and no check of it keep this quick.
    lib: ['lib.es5.d.ts'],
    skipLibCheck: true,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file === undefined ? '' : ts.getLineAndCharacterOfPosition(d.file, d.start ?? 0).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

describe('types generated from GET /openapi.json', () => {
  it('read data.entry_id and data.next_cursor, the rest of data and the error body as unknown; a wrong type does not compile', { timeout: 60_000 }, async () => {
    const lines = CLIENT.split('\n').length;
    const wrong = "export const wrong = (b: Body<'/deliveries/v1/parcels/{id}', 'get', 200>): number | undefined => b.data.entry_id;";
    // The one wrong line is the only error: the client above it compiles, and the compiler does check.
    expect(await compile(`${CLIENT}\n${wrong}\n`)).toEqual([`${lines + 1}: Type 'string | undefined' is not assignable to type 'number | undefined'.   Type 'string' is not assignable to type 'number'.`]);
  });
});
