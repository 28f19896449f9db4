declare const __PARCELS_VERSION__: string;

/** Baked in at build time (tsup `define`); tests running the sources see a dev version. */
export const VERSION = typeof __PARCELS_VERSION__ === 'string' ? __PARCELS_VERSION__ : '0.0.0-dev';
