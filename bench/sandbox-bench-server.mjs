// Child process for bench/sandbox-throughput.mjs: serves either the sandbox or a bare node:http
// server, so the load generator does not share a thread with the server under test.
import { createServer } from 'node:http';
import { DEMO_API_KEY, startSandbox } from '../dist/sandbox/index.js';

const [mode, db] = process.argv.slice(2);

// The load generator asks for this process's CPU time around each run (user + system µs), so the
// table can show CPU per request, which is steadier than req/s on a shared machine.
process.on('message', (msg) => {
  if (msg === 'cpu') {
    const u = process.cpuUsage();
    process.send({ cpu: u.user + u.system });
  }
});

if (mode === 'bare') {
  // Same size class as the sandbox's parcel representation (~370 bytes), so the comparison is about
  // the server's work per request, not about bytes on the wire.
  const now = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    data: {
      entry_id: '00000000-0000-4000-8000-000000000000', courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '10',
      addition: null, parcel_length: null, parcel_width: null, parcel_height: null, parcel_weight: 1200,
      time_slot_period_start: null, time_slot_period_end: null, service_type: null, status: 0, created_at: now, updated_at: now,
    },
  });
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}` }));
  process.on('disconnect', () => server.close(() => process.exit(0)));
} else {
  // Limiting stays on (its work and headers are part of every answer), but high enough that the
  // warm-up and all rounds stay under it: the default 100 000 / 60 s would turn runs into 429s.
  const sandbox = await startSandbox({ db, port: 0, rateLimit: { requests: 1_000_000_000, window_s: 60 } });
  const created = await fetch(`${sandbox.url}/deliveries/v1/parcels`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO_API_KEY}`, 'content-type': 'application/json', 'idempotency-key': `bench-setup-${Date.now()}` },
    body: JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '10', parcel_weight: 1200 }),
  });
  const id = (await created.json()).data.entry_id;
  process.send({ url: sandbox.url, id });
  process.on('disconnect', () => sandbox.close().then(() => process.exit(0)));
}
