import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clientGroupOf } from '../../src/net/client-group.ts';

describe('net.client-group', () => {
  test('client-group.ipv4: an IPv4 address is its own group, and so is its IPv4-mapped IPv6 form', () => {
    assert.equal(clientGroupOf('203.0.113.7'), '203.0.113.7');
    assert.equal(clientGroupOf('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(clientGroupOf('::FFFF:203.0.113.7'), '203.0.113.7');
    assert.equal(clientGroupOf('::ffff:cb00:7107'), '203.0.113.7', 'the same mapped address written in hex');
    assert.equal(clientGroupOf('0:0:0:0:0:ffff:7f00:1'), '127.0.0.1');
  });

  test('client-group.ipv6: an IPv6 address counts by its /64, however it is written', () => {
    const group = '2001:db8:0:1::/64';
    for (const address of [
      '2001:db8:0:1::1',
      '2001:db8:0:1:ffff:ffff:ffff:ffff',
      '2001:0DB8:0000:0001:0:0:0:9',
      '2001:db8::1:a:b:c:d',
      '2001:db8:0:1::5%eth0',
    ]) {
      assert.equal(clientGroupOf(address), group, address);
    }
    assert.equal(clientGroupOf('2001:db8:0:2::1'), '2001:db8:0:2::/64', 'the next /64 is another group');
    assert.equal(clientGroupOf('::1'), '0:0:0:0::/64');
    assert.equal(clientGroupOf('2001:db8::203.0.113.7'), '2001:db8:0:0::/64', 'a dotted tail is the low 32 bits');
  });

  test('client-group.other: what is not an IP address is its own group, unchanged', () => {
    for (const text of ['', 'unknown', '2001:db8::1::2', '300.1.1.1', '[2001:db8::1]'])
      assert.equal(clientGroupOf(text), text);
  });
});
