// The web inspector's request log under a bulk import's load: autocannon sends a fixed rate of
// requests (default 1 000 a second for 10 s) to a sandbox in a child process while a headless
// Chromium shows the Requests tab. Reports the rate reached, the page's frames per second and its
// main-thread tasks over 50 ms during the burst (PerformanceObserver "longtask"), and how far the page
// was behind the log when the burst ended. Run after `npm run build`:
//   node bench/inspector-log.mjs [--rate 1000] [--duration 10]
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { launchChromium } from '../scripts/chromium.mjs';
import { DEMO_API_KEY } from '../dist/sandbox/index.js';

const { values } = parseArgs({ options: { rate: { type: 'string', default: '1000' }, duration: { type: 'string', default: '10' } } });
const rate = Number(values.rate);
const duration = Number(values.duration);

// The sandbox in its own process, as `sandbox serve` runs it: the page and the load share no event loop with it.
const server = fork(fileURLToPath(new URL('./inspector-log-server.mjs', import.meta.url)), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const { url, link } = await new Promise((resolve) => server.once('message', resolve));
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(link);
  await page.getByRole('tab', { name: 'Requests' }).click();
  await page.getByText(/requests so far/).waitFor();
  await page.evaluate(`(() => {
    window.__bench = { longest: 0, long: 0, frames: 0 };
    new PerformanceObserver((list) => { for (const e of list.getEntries()) { window.__bench.long++; window.__bench.longest = Math.max(window.__bench.longest, e.duration); } }).observe({ type: 'longtask' });
    const frame = () => { window.__bench.frames++; requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
  })()`);
  const result = await new Promise((resolve, reject) =>
    autocannon({ url: `${url}/account/v1/couriers`, headers: { authorization: `Bearer ${DEMO_API_KEY}` }, connections: 16, overallRate: rate, duration }, (err, r) => (err ? reject(err) : resolve(r))),
  );
  const seen = await page.evaluate('window.__bench');
  const shown = await page.getByText(/requests so far/).textContent();
  const latest = Number(/^(\d+) requests/.exec(shown ?? '')?.[1] ?? 0);
  const sent = result.requests.total;
  console.log(`rate asked ${rate}/s for ${duration} s; sent ${sent} (${Math.round(sent / duration)}/s), non-2xx ${result.non2xx}, load ${loadavg()[0].toFixed(2)}`);
  console.log(`page: ${(seen.frames / duration).toFixed(1)} frames/s during the burst, ${seen.long} tasks over 50 ms, the longest ${seen.longest.toFixed(0)} ms`);
  console.log(`page behind the log when the burst ended: ${Math.max(0, sent - latest)} requests`);
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
