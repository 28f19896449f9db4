// The created index's scan (src/bulk/created-index/match.ts): reading each 40-byte record's kind,
// batch and tag through Buffer's readUInt*LE against a DataView of the same bytes, in alternating
// rounds over 2,000,000 records held in memory (no disk, no table: the reads alone). CPU ms per round.
//   node bench/index-scan.mjs [--records 2000000] [--rounds 6]
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { records: { type: 'string', default: '2000000' }, rounds: { type: 'string', default: '6' } } });
const RECORDS = Number(values.records);
const RECORD_BYTES = 40;
const CHUNK_RECORDS = 16_384;
const bytes = randomBytes(RECORDS * RECORD_BYTES);
for (let i = 0; i < RECORDS; i++) {
  bytes.writeUInt16LE(2 + (i % 3), i * RECORD_BYTES + 16);
  bytes.writeUInt8(1, i * RECORD_BYTES + 18);
}
const batches = new Set([2, 3]);
const chunks = [];
for (let first = 0; first < RECORDS; first += CHUNK_RECORDS) chunks.push(bytes.subarray(first * RECORD_BYTES, Math.min(RECORDS, first + CHUNK_RECORDS) * RECORD_BYTES));

function viaBuffer(chunk, count) {
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const at = i * RECORD_BYTES;
    if (chunk.readUInt8(at + 18) !== 1 || !batches.has(chunk.readUInt16LE(at + 16))) continue;
    sum = (sum + ((chunk.readUInt32LE(at) ^ chunk.readUInt32LE(at + 4)) % 1_000_003) + chunk.readUInt32LE(at + 12)) | 0;
  }
  return sum;
}

function viaDataView(chunk, count) {
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const at = i * RECORD_BYTES;
    if (view.getUint8(at + 18) !== 1 || !batches.has(view.getUint16(at + 16, true))) continue;
    sum = (sum + ((view.getUint32(at, true) ^ view.getUint32(at + 4, true)) % 1_000_003) + view.getUint32(at + 12, true)) | 0;
  }
  return sum;
}

const ways = [['Buffer readUInt*LE', viaBuffer], ['DataView', viaDataView]];
const cpu = Object.fromEntries(ways.map(([name]) => [name, []]));
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [name, scan] of round % 2 === 0 ? ways : [...ways].reverse()) {
    const before = process.cpuUsage();
    let sum = 0;
    for (const chunk of chunks) sum ^= scan(chunk, chunk.length / RECORD_BYTES);
    const used = process.cpuUsage(before);
    cpu[name].push((used.user + used.system) / 1000);
    if (sum === 0.5) console.log(sum);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
for (const [name] of ways) console.log(`${name}: median ${median(cpu[name]).toFixed(0)} ms CPU per ${RECORDS} records (rounds: ${cpu[name].map((ms) => ms.toFixed(0)).join(', ')})`);
