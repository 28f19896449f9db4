import type { Browser } from 'playwright-core';

export declare const CHROMIUM_ENV: string;
export declare function chromiumPath(env?: NodeJS.ProcessEnv): string;
export declare function launchChromium(): Promise<Browser>;
