/**
 * Entry of dist/network.js: everything that needs the network stack. The extension host entry
 * requires this bundle on first use only, so activation never pays for loading undici.
 */
export * from './api';
