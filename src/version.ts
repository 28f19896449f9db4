import { VERSION } from './schemas/version.js';

export { VERSION };

export const USER_AGENT = `parcels-cli/${VERSION} node/${process.versions.node}`;
