import { describe, expect, it } from 'vitest';
import { parseHostHeader } from './parse-host-header.js';

describe('parseHostHeader', () => {
  it.each([
    ['localhost', { name: 'localhost', port: undefined }],
    ['localhost:8080', { name: 'localhost', port: 8080 }],
    ['LocalHost.:1', { name: 'localhost.', port: 1 }],
    ['127.0.0.1:4317', { name: '127.0.0.1', port: 4317 }],
    ['255.255.255.255', { name: '255.255.255.255', port: undefined }],
    ['[::1]:80', { name: '[::1]', port: 80 }],
    ['[::ffff:1.2.3.4]', { name: '[::ffff:1.2.3.4]', port: undefined }],
    ['my_box.lan:65535', { name: 'my_box.lan', port: 65_535 }],
    ['app.localhost', { name: 'app.localhost', port: undefined }],
    ['1password.example', { name: '1password.example', port: undefined }],
  ])('accepts %j', (value, expected) => {
    expect(parseHostHeader(value)).toEqual(expected);
  });

  it.each([
    ['999.999.999.999', 'an IP-like name whose numbers are over 255'],
    ['256.1.1.1:80', 'an IP-like name whose numbers are over 255, with a port'],
    ['1.2.3.4.5', 'an IP-like name of five numbers'],
    ['1.2.3', 'an IP-like name of three numbers'],
    ['01.02.03.04', 'an IPv4 address with leading zeros'],
    ['example.0x10', 'a name ending in a hex number'],
    ['4294967295', 'a bare number'],
    ['', 'an empty value'],
    [':80', 'a port without a name'],
    ['localhost:0', 'port 0'],
    ['localhost:65536', 'a port over 65535'],
    ['localhost:99999', 'a five-digit port over 65535'],
    ['localhost:', 'an empty port'],
    ['localhost:8o', 'a port that is not a number'],
    ['a:b', 'a name followed by a word'],
    ['::1', 'IPv6 without brackets'],
    ['[::1', 'an unclosed bracket'],
    ['[zz]', 'brackets around something that is not IPv6'],
    ['[fe80::1%25eth0]', 'an IPv6 zone id'],
    ['exa mple', 'a space'],
    ['user@host', 'user info'],
    ['-bad.example', 'a label starting with a hyphen'],
    ['a..b', 'an empty label'],
    [`${'a'.repeat(64)}.example`, 'a label of 64 characters'],
    [`${'a.'.repeat(130)}example`, 'a name over 254 characters'],
    ['host/path', 'a slash'],
    ['ex\u00e4mple.de', 'a non-ASCII name (must arrive as punycode)'],
  ])('refuses %j (%s)', (value) => {
    expect(parseHostHeader(value)).toBeUndefined();
  });
});
