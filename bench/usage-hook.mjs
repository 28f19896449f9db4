// Preloaded into the `parcels` processes bench/bulk-import.mjs measures (node --import): at exit,
// writes the process's own CPU time and peak RSS to the file named by BULK_BENCH_USAGE_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.BULK_BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ userUs: usage.userCPUTime, systemUs: usage.systemCPUTime, maxRssKb: usage.maxRSS }));
  });
}
