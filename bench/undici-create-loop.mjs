// Reference for bench/bulk-import.mjs: the least a client built on undici does per create. One
// process, N creates at concurrency C over one undici Pool with Pool.dispatch (unique
// Idempotency-Keys, each answer read and parsed), nothing else: no validation, no journal, no
// results. Prints one JSON line: the wall-clock rate from process start and the CPU per request.
//   node bench/undici-create-loop.mjs URL KEY [count=10000] [concurrency=32]
import { Pool } from 'undici';

const [url, key, count = '10000', concurrencyText = '32'] = process.argv.slice(2);
const total = Number(count);
const concurrency = Number(concurrencyText);
const pool = new Pool(url, { connections: concurrency });
let sent = 0;
let done = 0;
await new Promise((resolve, reject) => {
  const next = () => {
    if (sent >= total) return;
    const i = ++sent;
    let status = 0;
    const chunks = [];
    pool.dispatch(
      {
        path: '/deliveries/v1/parcels',
        method: 'POST',
        headers: ['authorization', `Bearer ${key}`, 'content-type', 'application/json', 'idempotency-key', `undici-loop-${process.pid}-${i}`],
        body: `{"courier":"DEMO-BIKE","country":"NL","postal_code":"1234AB","number":"loop-${process.pid}-${i}"}`,
      },
      {
        onRequestStart() {},
        onResponseStart(_controller, statusCode) {
          status = statusCode;
        },
        onResponseData(_controller, chunk) {
          chunks.push(chunk);
        },
        onResponseEnd() {
          JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (status !== 201) return reject(new Error(`create answered ${status}`));
          if (++done === total) resolve();
          else next();
        },
        onResponseError(_controller, error) {
          reject(error);
        },
      },
    );
  };
  for (let k = 0; k < concurrency; k++) next();
});
await pool.close();
const cpu = process.cpuUsage();
console.log(JSON.stringify({ rate: total / (performance.now() / 1000), cpuUsPerRequest: (cpu.user + cpu.system) / total }));
