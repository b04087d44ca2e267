import { describe, expect, it } from 'vitest';
import { defaultConnectionCaps } from '../config';
import { connectionBucketKey } from './connection-caps';

describe('connectionBucketKey', () => {
  it('makes all of 127.0.0.0/8 one bucket, IPv4-mapped or not; other IPv4 addresses stay single', () => {
    expect(connectionBucketKey('127.0.0.1')).toBe('127.0.0.0/8');
    expect(connectionBucketKey('::ffff:127.3.4.5')).toBe('127.0.0.0/8');
    expect(connectionBucketKey('192.0.2.7')).toBe('192.0.2.7');
    expect(connectionBucketKey('192.0.2.8')).toBe('192.0.2.8');
  });

  it('keeps an IPv6 client in its /64, ::1 apart from 127.0.0.0/8', () => {
    expect(connectionBucketKey('2001:db8:0:1::1')).toBe(connectionBucketKey('2001:db8:0:1::ffff'));
    expect(connectionBucketKey('::1')).not.toBe(connectionBucketKey('127.0.0.1'));
  });
});

describe('defaultConnectionCaps', () => {
  it('stays well under the open-file limit, and at 4096 and 512 for a wide one', () => {
    expect(defaultConnectionCaps(1024)).toEqual({ http: 256, sftp: 32 });
    expect(defaultConnectionCaps(1_048_576)).toEqual({ http: 4096, sftp: 512 });
  });
});
