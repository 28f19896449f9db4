// Regenerates docs/inspector.png: the web inspector of a seeded sandbox at 1440 px, a parcel open.
// Run after `npm run build`: node scripts/screenshot-inspector.mjs [out.png]
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { DEMO_API_KEY, manualTime, startSandbox } from '../dist/sandbox/index.js';

const out = process.argv[2] ?? fileURLToPath(new URL('../docs/inspector.png', import.meta.url));
// A fixed, frozen clock, scenario seed, time zone and locale: the same picture every time.
const sandbox = await startSandbox({ db: ':memory:', frozen: true, scenarioSeed: 7, time: manualTime(Date.parse('2026-12-01T08:00:00Z')) });

async function create(postalCode, number, courier = 'DEMO-BIKE', addition) {
  const response = await fetch(`${sandbox.url}/deliveries/v1/parcels`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${DEMO_API_KEY}`, 'Content-Type': 'application/json', 'Idempotency-Key': `screenshot-${postalCode}-${number}` },
    body: JSON.stringify({ courier, country: 'NL', postal_code: postalCode, number, ...(addition === undefined ? {} : { addition }) }),
  });
  return (await response.json()).data.entry_id;
}

const browser = await launchChromium();
try {
  await create('9999FD', '12', 'DEMO-VAN');
  await create('9999TF', '3');
  await create('1234AB', '7', 'DEMO-VAN', 'B');
  const happy = await create('9999HA', '42', 'DEMO-BIKE', 'A');
  sandbox.clock.advance(3 * 3_600_000);
  await fetch(`${sandbox.url}/deliveries/v1/parcels/${happy}`, { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } });
  await fetch(`${sandbox.url}/deliveries/v1/parcels?limit=0`, { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', timezoneId: 'UTC', locale: 'en-GB' });
  await page.goto(sandbox.inspectorLink());
  await page.getByRole('button', { name: `Open parcel ${happy}` }).click();
  await page.getByRole('list', { name: 'Scenario steps' }).waitFor();
  await page.screenshot({ path: out, fullPage: false });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await sandbox.close();
}
