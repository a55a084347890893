// Which addresses count as "the public internet" for WebFetch: every other one asks first.
import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../dist/plugins/tool-webfetch/address.js';

const NOT_PUBLIC = [
  '127.0.0.1', '127.255.1.2', '0.0.0.0', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '224.0.0.1', '255.255.255.255', '198.18.0.1',
  '::', '::1', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1',
  // IPv4 inside IPv6: mapped, NAT64, 6to4, compatible.
  '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe', '2002:c0a8:0101::1', '::127.0.0.1',
  'not an address', '',
];
const PUBLIC = ['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'];

describe('isPublicAddress', () => {
  it('refuses loopback, private, link-local, shared, multicast and reserved addresses in every spelling', () => {
    expect(NOT_PUBLIC.filter(isPublicAddress)).toEqual([]);
  });
  it('accepts public addresses, IPv6 forms of public IPv4 included', () => {
    expect(PUBLIC.filter((a) => !isPublicAddress(a))).toEqual([]);
  });
});
