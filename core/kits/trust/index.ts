/** The workspace trust store (`<pkg>/kits/trust`): which projects' widening settings the user trusted, and digests of what they trusted. */
export { readTrust, updateTrust, revokeTrust, trustLocalRules, trustFile, sha256, type TrustRecord } from './trust-store.js';
