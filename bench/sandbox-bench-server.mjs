// Child process for bench/sandbox-throughput.mjs: serves the sandbox, a bare node:http server, or a
// bare node:http + better-sqlite3 insert server, so the load generator does not share a thread with
// the server under test.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import Database from 'better-sqlite3';
import { DEFAULT_LIMITS, DEMO_API_KEY, startSandbox } from '../dist/sandbox/index.js';

const [mode, db] = process.argv.slice(2);

// The load generator asks for this process's CPU time around each run (user + system µs), so the
// table can show CPU per request, which is steadier than req/s on a shared machine.
process.on('message', (msg) => {
  if (msg === 'cpu') {
    const u = process.cpuUsage();
    process.send({ cpu: u.user + u.system });
  }
});

/**
 * What the bare servers answer a GET with: the same size class as the sandbox's parcel
 * representation (~370 bytes), so the comparison is about the server's work per request, not
 * about bytes on the wire.
 */
function parcelAnswer() {
  const now = Math.floor(Date.now() / 1000);
  return JSON.stringify({
    data: {
      entry_id: '00000000-0000-4000-8000-000000000000', courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '10',
      addition: null, parcel_length: null, parcel_width: null, parcel_height: null, parcel_weight: 1200,
      time_slot_period_start: null, time_slot_period_end: null, service_type: null, status: 0, created_at: now, updated_at: now,
    },
  });
}

if (mode === 'bare') {
  const body = parcelAnswer();
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}` }));
  process.on('disconnect', () => server.close(() => process.exit(0)));
} else if (mode === 'bare-headers') {
  // The bare server plus what every sandbox answer carries whatever its route: the server options
  // the sandbox sets (timeouts, connection cap, idle timeout) and the seven headers of an answer
  // (ETag, RateLimit-*, Content-Type, Content-Length, its own Date), with fixed values. A reference:
  // what is left between it and the sandbox is the sandbox's own work per request.
  const body = parcelAnswer();
  const length = String(Buffer.byteLength(body));
  const limits = DEFAULT_LIMITS;
  const server = createServer(
    { headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, keepAliveTimeout: limits.keepAliveTimeoutMs, connectionsCheckingInterval: Math.floor(limits.headersTimeoutMs / 4) },
    (req, res) => {
      res.sendDate = false;
      res.writeHead(200, ['ETag', '"v1-abcdefghijkl"', 'RateLimit-Limit', '1000000000', 'RateLimit-Remaining', '999999999', 'RateLimit-Reset', '59', 'Content-Type', 'application/json', 'Content-Length', length, 'Date', new Date().toUTCString()]);
      res.end(body);
    },
  );
  server.maxConnections = limits.maxConnections;
  server.setTimeout(limits.idleTimeoutMs, (socket) => socket.destroy());
  server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}` }));
  process.on('disconnect', () => server.close(() => process.exit(0)));
} else if (mode === 'bare-sqlite') {
  // The floor for a create: read the JSON body, parse it, insert one row in a WAL file database
  // (synchronous=NORMAL, as the sandbox), answer 201 with the row as JSON.
  const sqlite = new Database(db);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.exec('CREATE TABLE IF NOT EXISTS parcels (seq INTEGER PRIMARY KEY, entry_id TEXT NOT NULL UNIQUE, courier TEXT, country TEXT, postal_code TEXT, number TEXT, created_at INTEGER)');
  const insert = sqlite.prepare('INSERT INTO parcels (entry_id, courier, country, postal_code, number, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const p = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const row = { entry_id: randomUUID(), courier: p.courier, country: p.country, postal_code: p.postal_code, number: p.number, created_at: Math.floor(Date.now() / 1000) };
      insert.run(row.entry_id, row.courier, row.country, row.postal_code, row.number, row.created_at);
      const body = JSON.stringify({ data: row });
      res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
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
