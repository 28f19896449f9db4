/** `config use NAME` is `auth switch NAME` under the config noun: one implementation. */
export { default } from '../auth/switch.js';
