import { describe, expect, it } from 'vitest';
import { addressPolicy, isPublicAddress } from './address-policy';

describe('isPublicAddress', () => {
  it('takes public unicast only', () => {
    for (const address of ['8.8.8.8', '93.184.215.14', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('refuses every range that is not public', () => {
    for (const address of [
      '127.0.0.1', // loopback
      '10.1.2.3', // private
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254', // link-local (cloud metadata)
      '100.64.0.1', // carrier-grade NAT
      '224.0.0.1', // multicast
      '255.255.255.255', // broadcast
      '0.0.0.0', // unspecified
      '192.0.2.1', // reserved (documentation)
      '198.18.0.1', // benchmarking
      '::1',
      '::',
      'fe80::1',
      'fc00::1', // unique local
      'fd12:3456::1',
      'ff02::1', // multicast
      '::ffff:127.0.0.1', // IPv4-mapped loopback
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1', // NAT64 of 10.0.0.1
      '2002:a00:1::1', // 6to4
      '2001:db8::1', // documentation
      'not-an-address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});

describe('addressPolicy', () => {
  it('allows listed names, addresses and ranges (tests), and public addresses for anyone', () => {
    const policy = addressPolicy(['localhost', '127.0.0.1', '10.9.0.0/16', '[::1]']);
    expect(policy.allows('localhost', '127.0.0.1')).toBe(true);
    expect(policy.allows('LOCALHOST', '::1')).toBe(true);
    expect(policy.allows('files.test', '127.0.0.1')).toBe(true);
    expect(policy.allows('files.test', '::ffff:127.0.0.1')).toBe(true);
    expect(policy.allows('files.test', '10.9.3.4')).toBe(true);
    expect(policy.allows('files.test', '::1')).toBe(true);
    expect(policy.allows('files.test', '10.8.0.1')).toBe(false);
    expect(policy.allows('example.test', '8.8.8.8')).toBe(true);
    expect(addressPolicy().allows('localhost', '127.0.0.1')).toBe(false);
  });
});
