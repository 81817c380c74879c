import { describe, expect, it } from 'vitest';
import {
  DESTINATION_MESSAGES,
  DestinationError,
  checkDestination,
  isCenterNetworkAddress,
  parseAllowedDestinations,
} from './destination.js';

describe('send-job destinations', () => {
  it('the center network is RFC 1918, loopback and link-local', () => {
    const inside = ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.10', '127.0.0.1', '169.254.1.1'];
    const outside = ['172.15.0.1', '172.32.0.1', '192.169.0.1', '8.8.8.8', '100.64.0.1', '0.0.0.0'];
    expect(inside.filter(isCenterNetworkAddress)).toEqual(inside);
    expect(outside.filter(isCenterNetworkAddress)).toEqual([]);
  });

  it('a configured list decides alone, with or without the AE title', () => {
    const policy = { allowed: parseAllowedDestinations('PACS@8.8.4.4:104, 10.0.0.9:11112') };
    expect(checkDestination({ aeTitle: 'PACS', destination: '8.8.4.4:104' }, policy)).toEqual({
      aeTitle: 'PACS',
      host: '8.8.4.4',
      port: 104,
    });
    expect(checkDestination({ aeTitle: 'ANY', destination: '10.0.0.9:11112' }, policy).port).toBe(11112);
    expect(() => checkDestination({ aeTitle: 'PACS', destination: '10.0.0.10:104' }, policy)).toThrow(
      DESTINATION_MESSAGES.notConfigured,
    );
  });

  it('a malformed configured entry is refused at start, naming it', () => {
    expect(() => parseAllowedDestinations('PACS@pacs.local:104')).toThrow(DestinationError);
    expect(() => parseAllowedDestinations('A\\B@10.0.0.1:104')).toThrow(/A\\B@10.0.0.1:104/);
    expect(parseAllowedDestinations(undefined)).toEqual([]);
  });
});
