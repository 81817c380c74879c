import { describe, expect, it } from 'vitest';
import { ZSendJobRunRequest, routerBaseUrl } from './local-api.js';

describe('routerBaseUrl (spec-core §7 configurable base address)', () => {
  it.each([
    [undefined, 'http://localhost:8090'],
    ['', 'http://localhost:8090'],
    ['   ', 'http://localhost:8090'],
    ['http://localhost:9100', 'http://localhost:9100'],
    ['http://127.0.0.1:9100/', 'http://127.0.0.1:9100'],
    ['https://router.center.example/base/', 'https://router.center.example/base'],
    ['not a url', 'http://localhost:8090'],
    ['ftp://router:21', 'http://localhost:8090'],
    ['javascript:alert(1)', 'http://localhost:8090'],
  ])('customRouterUrl %j gives %s', (customRouterUrl, expected) => {
    expect(routerBaseUrl({ customRouterUrl })).toBe(expected);
  });
});

describe('send-job run request', () => {
  const valid = {
    studyId: '1.2.840.1',
    reportStatusId: 7,
    aeTitle: 'PACS_A',
    destination: '192.168.1.20:104',
    createdAt: '2026-11-27 10:00:00',
    userEmail: 'center@example.com',
  };
  it('accepts the spec fields', () => {
    expect(ZSendJobRunRequest.parse(valid)).toEqual(valid);
  });
  it.each([
    ['aeTitle', 'A'.repeat(17), 'aeTitle is at most 16 characters'],
    ['aeTitle', 'BAD\\AE', 'aeTitle must be printable ASCII without a backslash'],
    ['destination', 'pacs', 'destination must be host:port'],
    ['studyId', 'abc', 'studyInstanceUid must be a DICOM UID (not only digits and dots)'],
    ['studyId', '1..2', 'studyInstanceUid must be a DICOM UID (an empty component)'],
  ])('names a bad %s', (field, value, message) => {
    const parsed = ZSendJobRunRequest.safeParse({ ...valid, [field]: value });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });
});
