// Starts the Chromium the browser tests and the inspector screenshot drive: Debian's `chromium`
// package, or the executable PARCELS_CHROMIUM names, through playwright-core (no browser download).
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM_ENV = 'PARCELS_CHROMIUM';
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** The executable to run: PARCELS_CHROMIUM, else Debian's; throws, saying how to get one, when absent. */
export function chromiumPath(env = process.env) {
  const path = env[CHROMIUM_ENV] || DEBIAN_CHROMIUM;
  if (!existsSync(path)) {
    throw new Error(`no Chromium at ${path}: install Debian's (apt-get install -y --no-install-recommends chromium) or set ${CHROMIUM_ENV} to another Chromium's path`);
  }
  return path;
}

/** A headless Chromium (as root it needs --no-sandbox, which Playwright passes by default). */
export function launchChromium() {
  return chromium.launch({ executablePath: chromiumPath(), headless: true });
}
