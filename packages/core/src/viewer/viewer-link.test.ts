import { describe, expect, it } from 'vitest';
import {
  correctedViewerSearch,
  defaultViewerKind,
  viewerCloseAction,
  viewerLink,
  viewerQueryOf,
  withViewerKind,
} from './viewer-link.js';

describe('viewerQueryOf (spec-core §2: v, optional p=1 and d=1)', () => {
  it.each([
    ['?v=2&d=1', { kind: 'diagnostic', popup: false, apiVersion: 2 }],
    ['?v=2', { kind: 'light', popup: false, apiVersion: 2 }],
    ['v=1&p=1&d=1', { kind: 'diagnostic', popup: true, apiVersion: 1 }],
    ['?d=0&p=0', { kind: 'light', popup: false, apiVersion: null }],
    ['?d=true&v=two', { kind: 'light', popup: false, apiVersion: null }],
    ['?v=0', { kind: 'light', popup: false, apiVersion: null }],
    ['?v=-1', { kind: 'light', popup: false, apiVersion: null }],
    ['', { kind: 'light', popup: false, apiVersion: null }],
  ])('%s', (search, expected) => {
    expect(viewerQueryOf(search)).toEqual(expected);
  });
});

describe('defaultViewerKind: the viewer the app links open per role', () => {
  it.each([
    [['ROLE_DOCTOR'], 'diagnostic'],
    [['ROLE_ADMIN'], 'diagnostic'],
    [['ROLE_TYPIST'], 'diagnostic'],
    [['ROLE_CENTER'], 'diagnostic'],
    [['ROLE_ASSIGNOR'], 'diagnostic'],
    [['ROLE_REFERRING_DOCTOR'], 'light'],
    [['ROLE_CUSTOMER'], 'light'],
    [['ROLE_VIEWER'], 'light'],
    [['ROLE_CENTER_CUSTOMER'], 'light'],
    [['ROLE_REFERRING_DOCTOR', 'ROLE_DOCTOR'], 'diagnostic'],
  ] as const)('%j → %s', (roles, kind) => {
    expect(defaultViewerKind(roles)).toBe(kind);
  });
});

describe('viewerLink (spec-lab §2 /viewer/{instanceId}/{id}?v={apiVersion} with p=1, d=1)', () => {
  const study = { studyInstanceUid: '1.2.3', id: 77, apiVersion: 2 };
  it('builds v, then p and d', () => {
    expect(viewerLink(study, { kind: 'light' })).toBe('/viewer/1.2.3/77?v=2');
    expect(viewerLink(study, { kind: 'diagnostic' })).toBe('/viewer/1.2.3/77?v=2&d=1');
    expect(viewerLink(study, { kind: 'diagnostic', popup: true })).toBe('/viewer/1.2.3/77?v=2&p=1&d=1');
    expect(viewerLink(study, { kind: 'diagnostic', extra: { series: '9', frame: '2' } })).toBe(
      '/viewer/1.2.3/77?v=2&d=1&series=9&frame=2',
    );
  });
  it('encodes the UID list', () => {
    expect(viewerLink({ ...study, studyInstanceUid: '1.2,3.4' }, { kind: 'light' })).toBe(
      '/viewer/1.2%2C3.4/77?v=2',
    );
  });
});

describe('withViewerKind: switching viewers keeps the rest of the query', () => {
  it('adds and removes d=1 only', () => {
    expect(withViewerKind('?v=2&p=1', 'diagnostic')).toBe('?v=2&p=1&d=1');
    expect(withViewerKind('?v=2&p=1&d=1', 'light')).toBe('?v=2&p=1');
    expect(withViewerKind('?d=1', 'light')).toBe('');
  });
});

describe('correctedViewerSearch: v follows the study row', () => {
  it('leaves a right v alone', () => {
    expect(correctedViewerSearch('?v=2&d=1', 2)).toBeNull();
  });
  it('corrects a missing, malformed or stale v, keeping the rest', () => {
    expect(correctedViewerSearch('?d=1', 2)).toBe('?d=1&v=2');
    expect(correctedViewerSearch('?v=02&p=1', 2)).toBe('?v=2&p=1');
    expect(correctedViewerSearch('?v=1&d=1', 2)).toBe('?v=2&d=1');
  });
});

describe('viewerCloseAction: p=1 closes the popup', () => {
  it('closes a popup, goes home from a page', () => {
    expect(viewerCloseAction(true, false)).toBe('close-window');
    expect(viewerCloseAction(false, true)).toBe('close-window');
    expect(viewerCloseAction(false, false)).toBe('go-home');
  });
});
