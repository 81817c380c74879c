import { describe, expect, it } from 'vitest';
import {
  FORWARDING_MESSAGES as M,
  ZForwardingPacsInput,
  canForwardToPacs,
  canManageForwardingPacs,
  caseSendBadge,
  formatForwardFailure,
  isIpv4,
  sendPercentage,
  validateForwardingPacs,
} from './schemas.js';

describe('forwarding PACS validation (spec-lab §5)', () => {
  const valid = { aeTitle: 'ORTHANC', ip: '192.168.1.20', port: '104' };

  it('accepts a complete entry and reads the port typed as text', () => {
    expect(validateForwardingPacs(valid)).toBeNull();
    expect(ZForwardingPacsInput.parse(valid)).toMatchObject({
      aeTitle: 'ORTHANC',
      ip: '192.168.1.20',
      port: 104,
    });
    expect(ZForwardingPacsInput.parse({ ...valid, port: 65535 }).port).toBe(65535);
  });

  it("says 'Please add all details' when any of ae title, ip and port is missing or blank", () => {
    expect(validateForwardingPacs({})).toBe('Please add all details');
    expect(validateForwardingPacs({ ...valid, aeTitle: '  ' })).toBe(M.addAllDetails);
    expect(validateForwardingPacs({ ...valid, ip: '' })).toBe(M.addAllDetails);
    expect(validateForwardingPacs({ ...valid, port: null })).toBe(M.addAllDetails);
    // Missing wins over an invalid field placed before it.
    expect(validateForwardingPacs({ aeTitle: 'A'.repeat(20), ip: '1.2.3.4' })).toBe(M.addAllDetails);
  });

  it('wants a dotted IPv4 with each part 0-255', () => {
    for (const ip of ['10.0.0.1', '0.0.0.0', '255.255.255.255']) expect(isIpv4(ip), ip).toBe(true);
    for (const ip of ['256.1.1.1', '1.2.3', '1.2.3.4.5', 'pacs.local', '1..2.3', '-1.2.3.4', '1.2.3.4 '])
      expect(isIpv4(ip), ip).toBe(false);
    expect(validateForwardingPacs({ ...valid, ip: '300.1.1.1' })).toBe(M.invalidIp);
  });

  it('wants a port 1-65535', () => {
    for (const port of ['0', '65536', 'abc', '1.5', -1, 70000])
      expect(validateForwardingPacs({ ...valid, port }), String(port)).toBe(M.invalidPort);
    expect(validateForwardingPacs({ ...valid, port: '1' })).toBeNull();
  });

  it('keeps AE titles to DICOM length', () => {
    expect(validateForwardingPacs({ ...valid, aeTitle: 'A'.repeat(17) })).toBe(M.invalidAeTitle);
    expect(validateForwardingPacs({ ...valid, aeTitle: 'A\\B' })).toBe(M.invalidAeTitle);
    expect(validateForwardingPacs({ ...valid, aeTitle: 'A'.repeat(16) })).toBeNull();
  });
});

describe('case-send badge (spec-core §4)', () => {
  const record = (id: number, status: 'IN_PROGRESS' | 'FAILED' | 'SEND', success: number, total: number) => ({
    id,
    status,
    success,
    total,
    createdAt: `2026-01-01T00:00:0${id}.000Z`,
  });

  it('no send: no badge', () => {
    expect(caseSendBadge([])).toEqual({ state: 'NONE', label: '', percentage: null });
  });

  it('in progress: the percentage sent, over every running send, never 100 before the end', () => {
    expect(caseSendBadge([record(1, 'IN_PROGRESS', 1, 3)])).toMatchObject({
      state: 'IN_PROGRESS',
      label: '33%',
    });
    expect(caseSendBadge([record(1, 'SEND', 4, 4), record(2, 'IN_PROGRESS', 0, 4)]).label).toBe('0%');
    expect(sendPercentage(199, 200)).toBe(99);
    expect(sendPercentage(0, 0)).toBe(0);
  });

  it('otherwise the newest send decides: Case Send or Case Failed', () => {
    expect(caseSendBadge([record(1, 'FAILED', 0, 4), record(2, 'SEND', 4, 4)])).toMatchObject({
      state: 'SEND',
      label: 'Case Send',
    });
    expect(caseSendBadge([record(2, 'FAILED', 2, 4), record(1, 'SEND', 4, 4)])).toMatchObject({
      state: 'FAILED',
      label: 'Case Failed',
    });
  });
});

describe('who forwards', () => {
  it('center users and group staff forward; doctors, referring doctors, customers and viewers do not', () => {
    expect(canForwardToPacs(['ROLE_CENTER'])).toBe(true);
    expect(canForwardToPacs(['ROLE_ASSIGNOR'])).toBe(true);
    expect(canForwardToPacs(['ROLE_GROUP'])).toBe(true);
    for (const role of [
      'ROLE_DOCTOR',
      'ROLE_REFERRING_DOCTOR',
      'ROLE_CUSTOMER',
      'ROLE_CENTER_CUSTOMER',
      'ROLE_VIEWER',
    ] as const)
      expect(canForwardToPacs([role]), role).toBe(false);
  });

  it('the PACS list is kept by center users and group admins', () => {
    expect(canManageForwardingPacs(['ROLE_CENTER'])).toBe(true);
    expect(canManageForwardingPacs(['ROLE_GROUP'])).toBe(true);
    expect(canManageForwardingPacs(['ROLE_ASSIGNOR'])).toBe(false);
  });

  it("formats the failure alert as 'Report Id: {id} | {message}' (spec-core §8)", () => {
    expect(formatForwardFailure(12, 'connection refused')).toBe('Report Id: 12 | connection refused');
  });
});
