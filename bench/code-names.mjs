// What the service/location-type name check costs a bulk run before its first request (issue 27:
// names in service_type / delivered_location_type columns are read once, before anything is sent).
//   node bench/code-names.mjs [--lines 200000] [--rounds 5]
// Bundles src/bulk/code-names.ts with esbuild and times, in-process, its pass over three inputs
// against a plain read of the same input (what every run does anyway): a CSV file with a
// service_type column of numbers (every line parsed once more), an NDJSON file of numbers (a byte
// scan, no line parsed) and an NDJSON file of names (every line parsed). Medians of CPU time.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { ROOT, median } from './lib/kit.mjs';

const { values } = parseArgs({ options: { lines: { type: 'string', default: '200000' }, rounds: { type: 'string', default: '5' } } });
const lines = Number(values.lines);
const dir = mkdtempSync(join(tmpdir(), 'code-names-bench-'));
try {
  const entry = join(dir, 'entry.ts');
  writeFileSync(entry, `export { inputCodeNames } from '${join(ROOT, 'src/bulk/code-names.ts')}';\nexport { readInput } from '${join(ROOT, 'src/bulk/input.ts')}';\n`);
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: join(dir, 'bundle.mjs'), logLevel: 'error' });
  const { inputCodeNames, readInput } = await import(join(dir, 'bundle.mjs'));
  const parcel = (i, service) => ({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: String(i), service_type: service });
  const inputs = [
    ['csv, service_type numbers', 'csv', `courier,country,postal_code,number,service_type\n${Array.from({ length: lines }, (_, i) => `A-BIKE,NL,1234AB,${i},2`).join('\n')}\n`],
    ['ndjson, numbers', 'ndjson', `${Array.from({ length: lines }, (_, i) => JSON.stringify(parcel(i, 2))).join('\n')}\n`],
    ['ndjson, names', 'ndjson', `${Array.from({ length: lines }, (_, i) => JSON.stringify(parcel(i, 'next_day'))).join('\n')}\n`],
  ];
  const load = async () => ({ service_type: { 0: 'standard', 2: 'next_day' } });
  const cpu = async (work) => {
    const start = process.cpuUsage();
    await work();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
  for (const [label, format, text] of inputs) {
    const path = join(dir, `input.${format}`);
    writeFileSync(path, text);
    const check = [];
    const read = [];
    for (let round = 0; round < Number(values.rounds); round++) {
      check.push(await cpu(() => inputCodeNames(path, (onHeader) => readInput(path, format, { bareIds: false, onHeader }), { format, input: path, load })));
      read.push(
        await cpu(async () => {
          for await (const chunk of readInput(path, format, { bareIds: false })) void chunk;
        }),
      );
    }
    console.log(`${label} (${lines} lines): name check ${median(check).toFixed(0)} ms CPU, plain read ${median(read).toFixed(0)} ms CPU`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
