// Child process for bench/sandbox-throughput.mjs: serves either the sandbox or a bare node:http
// server, so the load generator does not share a thread with the server under test.
import { createServer } from 'node:http';
import { DEMO_API_KEY, startSandbox } from '../dist/sandbox/index.js';

const [mode, db] = process.argv.slice(2);

if (mode === 'bare') {
  const body = JSON.stringify({ data: { ok: true, entry_id: '00000000-0000-4000-8000-000000000000' } });
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}` }));
  process.on('disconnect', () => server.close(() => process.exit(0)));
} else {
  const sandbox = await startSandbox({ db, port: 0 });
  const created = await fetch(`${sandbox.url}/deliveries/v1/parcels`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO_API_KEY}`, 'content-type': 'application/json', 'idempotency-key': `bench-setup-${Date.now()}` },
    body: JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '10', parcel_weight: 1200 }),
  });
  const id = (await created.json()).data.entry_id;
  process.send({ url: sandbox.url, id });
  process.on('disconnect', () => sandbox.close().then(() => process.exit(0)));
}
