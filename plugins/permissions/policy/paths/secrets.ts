/** The secret list is shared with the file tools (they withhold secrets from results): it lives in the fs kit. */
export { createSecretMatcher, type SecretOptions } from '../../../../core/kits/fs/index.js';

/** Names a glob could match that would be secrets, to judge a pattern whose directory cannot be listed. */
export const SECRET_EXAMPLES = [
  '.env', '.env.local', '.env.production', '.envrc', '.ssh', '.aws', '.gnupg', '.npmrc', '.netrc', '.git-credentials', 'credentials', 'credentials.json',
  'secrets.yaml', 'id_rsa', 'id_ed25519', 'server.key', 'cert.pem', 'terraform.tfstate', 'prod.tfvars', 'service-account.json', 'vault.kdbx', 'AuthKey.p8',
];
