import {
  ZCenter,
  ZCenterList,
  ZManagedUser,
  ZManagedUserList,
  ZOk,
  ZPasswordLinkInfo,
  ZPasswordLinkSent,
  ZPeopleAuditList,
  type TCenterInput,
  type TInvitationChannel,
  type TInviteUserRequest,
  type TUpdateUserRequest,
} from '@radflow/core';
import { apiRequest } from './client';

/**
 * The group admin's calls (issue 21 §9; server modules/people). Writes are quiet: each dialog shows
 * the server's refusal next to the form it belongs to.
 */

export const fetchCenters = (signal?: AbortSignal) =>
  apiRequest('/api/admin/centers', { schema: ZCenterList, signal });

/** The center as the form holds it (AE titles as typed). */
export type TCenterForm = Omit<TCenterInput, 'contactMobile'> & { contactMobile: string };

export const saveCenter = (id: number | null, body: TCenterForm) =>
  apiRequest(id === null ? '/api/admin/centers' : `/api/admin/centers/${id}`, {
    method: id === null ? 'POST' : 'PUT',
    json: body,
    schema: ZCenter,
    quiet: true,
  });

export const fetchManagedUsers = (signal?: AbortSignal) =>
  apiRequest('/api/admin/users', { schema: ZManagedUserList, signal });

export const inviteUser = (body: TInviteUserRequest) =>
  apiRequest('/api/admin/users', { json: body, schema: ZManagedUser, quiet: true });

export const updateUser = (id: number, body: TUpdateUserRequest) =>
  apiRequest(`/api/admin/users/${id}`, { method: 'PUT', json: body, schema: ZManagedUser, quiet: true });

export const setUserActive = (id: number, active: boolean) =>
  apiRequest(`/api/admin/users/${id}/${active ? 'activate' : 'deactivate'}`, {
    method: 'POST',
    schema: ZManagedUser,
  });

export const sendPasswordLink = (id: number, purpose: 'RESET' | 'INVITE', channel: TInvitationChannel) =>
  apiRequest(`/api/admin/users/${id}/${purpose === 'RESET' ? 'reset-password' : 'resend-invitation'}`, {
    json: { channel },
    schema: ZPasswordLinkSent,
  });

export const setTypistDoctors = (id: number, doctorIds: number[]) =>
  apiRequest(`/api/admin/users/${id}/doctors`, {
    method: 'PUT',
    json: { doctorIds },
    schema: ZManagedUser,
    quiet: true,
  });

export const fetchPeopleAudit = (signal?: AbortSignal) =>
  apiRequest('/api/admin/audit', { schema: ZPeopleAuditList, signal });

export const fetchPasswordLink = (token: string) =>
  apiRequest('/api/user-create/password-link', { json: { token }, schema: ZPasswordLinkInfo, quiet: true });

export const setPasswordByLink = (token: string, newPassword: string) =>
  apiRequest('/api/user-create/set-password', { json: { token, newPassword }, schema: ZOk, quiet: true });
