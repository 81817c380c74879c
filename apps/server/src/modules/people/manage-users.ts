import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import {
  AppError,
  MESSAGE_CENTER_NOT_ALLOWED,
  MESSAGE_CENTER_REQUIRED,
  MESSAGE_EMAIL_TAKEN,
  MESSAGE_INVITATION_USED,
  MESSAGE_MOBILE_TAKEN,
  MESSAGE_NO_SUCH_CENTER,
  MESSAGE_NO_SUCH_USER,
  MESSAGE_NOT_A_DOCTOR,
  MESSAGE_NOT_A_TYPIST,
  MESSAGE_NOT_YOURSELF,
  MESSAGE_ROLE_NOT_GRANTABLE,
  MESSAGE_SMS_NEEDS_MOBILE,
  MESSAGE_USER_ABOVE_YOU,
  MESSAGE_USER_INACTIVE,
  type TInvitationChannel,
  type TManagedUser,
  type TRole,
  canGrantRoles,
  canManageUser,
  needsCenter,
  sortRolesForDisplay,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { type TUserRow, centers, groups, passwordLinks, userMappings, users } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { revokeApiTokensOfUser } from '../credentials/api-token.js';
import { hashPassword } from '../auth/passwords.js';
import { forgetSessionsOfUser, revokeSessions } from '../credentials/sessions.js';
import { storedRoles } from '../current-user/current-user.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { recordPeopleChange } from './people-audit.js';
import { createPasswordLink, dropUnusedLinks, sendPasswordLink } from './password-links.js';

/** What a user-management call needs: the context (its e-mail and SMS providers) and the public address. */
export interface TPeopleDeps {
  ctx: AppContext;
  publicUrl: string;
}

export interface TPersonFields {
  identifier: string;
  mobileNumber: string | null;
  roles: TRole[];
  centerId: number | null;
}

/**
 * Accounts that are not staff: patients (sign-up) and viewer accounts (shared links) are many and
 * not the admin's to manage; the Users list leaves them out.
 */
const NOT_STAFF: readonly TRole[] = ['ROLE_CUSTOMER', 'ROLE_VIEWER'];
const isStaff = (roles: readonly TRole[]) => roles.some((r) => !NOT_STAFF.includes(r));

const auditedFields = (u: Pick<TUserRow, 'identifier' | 'mobileNumber' | 'roles' | 'centerId'>) => ({
  identifier: u.identifier,
  mobileNumber: u.mobileNumber,
  roles: u.roles,
  centerId: u.centerId,
});

/** The caller's group's users (staff), with invitation state and typists' doctors. */
export async function listManagedUsers(db: DbOrTx, auth: TAuth): Promise<TManagedUser[]> {
  const rows = await db
    .select()
    .from(users)
    .where(eq(users.groupId, auth.user.groupId))
    .orderBy(asc(users.identifier), asc(users.id));
  const staff = rows.filter((u) => isStaff(storedRoles(u)));
  return toManagedUsers(db, staff);
}

async function toManagedUsers(db: DbOrTx, rows: TUserRow[]): Promise<TManagedUser[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((u) => u.id);
  const pending = await db
    .select({ userId: passwordLinks.userId })
    .from(passwordLinks)
    .where(
      and(
        inArray(passwordLinks.userId, ids),
        eq(passwordLinks.purpose, 'INVITE'),
        isNull(passwordLinks.usedAt),
      ),
    );
  const pendingIds = new Set(pending.map((p) => p.userId));
  const mappings = await db
    .select({ userId: userMappings.userId, doctorId: userMappings.mappedUserId })
    .from(userMappings)
    .where(and(inArray(userMappings.userId, ids), eq(userMappings.role, 'ROLE_DOCTOR')))
    .orderBy(asc(userMappings.mappedUserId));
  return rows.map((u) => ({
    id: u.id,
    email: u.email,
    identifier: u.identifier,
    mobileNumber: u.mobileNumber,
    roles: sortRolesForDisplay(storedRoles(u)),
    centerId: u.centerId,
    active: u.active,
    invitationPending: pendingIds.has(u.id),
    doctorIds: mappings.filter((m) => m.userId === u.id).map((m) => m.doctorId),
  }));
}

async function managedUser(db: DbOrTx, userId: number): Promise<TManagedUser> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new AppError('NOT_FOUND', MESSAGE_NO_SUCH_USER);
  const [user] = await toManagedUsers(db, [row]);
  if (!user) throw new AppError('NOT_FOUND', MESSAGE_NO_SUCH_USER);
  return user;
}

/**
 * The user of the caller's group, locked for the change, that the caller may manage: 404 for a user
 * of another group (their existence is not the caller's business), 403 for one ranked above them.
 */
async function lockManagedUser(tx: DbOrTx, auth: TAuth, userId: number): Promise<TUserRow> {
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.groupId, auth.user.groupId)))
    .for('update');
  if (!row) throw new AppError('NOT_FOUND', MESSAGE_NO_SUCH_USER);
  if (!canManageUser(auth.roles, storedRoles(row))) throw new AppError('FORBIDDEN', MESSAGE_USER_ABOVE_YOU);
  return row;
}

/** Roles, center and mobile of a person as written: the role rules, the center rule, uniqueness. */
async function assertPersonFields(
  tx: DbOrTx,
  auth: TAuth,
  fields: TPersonFields,
  opts: { addedRoles: readonly TRole[]; userId: number | null },
) {
  if (!canGrantRoles(auth.roles, opts.addedRoles))
    throw new AppError('FORBIDDEN', MESSAGE_ROLE_NOT_GRANTABLE, 'roles');
  if (needsCenter(fields.roles)) {
    if (fields.centerId === null) throw new AppError('BAD_REQUEST', MESSAGE_CENTER_REQUIRED, 'centerId');
    const [center] = await tx
      .select({ id: centers.id })
      .from(centers)
      .where(and(eq(centers.id, fields.centerId), eq(centers.groupId, auth.user.groupId)));
    if (!center) throw new AppError('BAD_REQUEST', MESSAGE_NO_SUCH_CENTER, 'centerId');
  } else if (fields.centerId !== null) {
    throw new AppError('BAD_REQUEST', MESSAGE_CENTER_NOT_ALLOWED, 'centerId');
  }
  if (fields.mobileNumber) {
    const [holder] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.mobileNumber, fields.mobileNumber));
    if (holder && holder.id !== opts.userId)
      throw new AppError('CONFLICT', MESSAGE_MOBILE_TAKEN, 'mobileNumber');
  }
}

/** A unique-index race (two admins inviting one address at once) is the same 409 as the pre-check. */
function asConflict(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('CONFLICT', MESSAGE_EMAIL_TAKEN, 'email');
  throw error;
}

async function groupName(db: DbOrTx, groupId: number): Promise<string> {
  const [group] = await db.select({ name: groups.name }).from(groups).where(eq(groups.id, groupId));
  return group?.name ?? 'your group';
}

/**
 * POST /api/admin/users: the user, the invitation link and the audit line in one transaction; the
 * message goes out after commit. The account has no usable password until the link is used (its
 * hash is of random bytes nobody knows).
 */
export async function inviteUser(
  deps: TPeopleDeps,
  auth: TAuth,
  input: TPersonFields & { email: string; channel: TInvitationChannel },
): Promise<TManagedUser> {
  const { ctx } = deps;
  if (input.channel === 'SMS' && !input.mobileNumber)
    throw new AppError('BAD_REQUEST', MESSAGE_SMS_NEEDS_MOBILE, 'mobileNumber');
  const now = ctx.now();
  const unusable = await hashPassword(randomBytes(32).toString('base64url'));
  const roles = sortRolesForDisplay(input.roles);
  const { user, link } = await ctx.db
    .transaction(async (tx) => {
      await assertPersonFields(tx, auth, input, { addedRoles: roles, userId: null });
      const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
      if (taken) throw new AppError('CONFLICT', MESSAGE_EMAIL_TAKEN, 'email');
      const [row] = await tx
        .insert(users)
        .values({
          email: input.email,
          mobileNumber: input.mobileNumber,
          passwordHash: unusable,
          roles,
          groupId: auth.user.groupId,
          centerId: input.centerId,
          identifier: input.identifier,
          createdAt: now,
        })
        .returning();
      if (!row) throw new Error('user not stored');
      const link = await createPasswordLink(tx, {
        userId: row.id,
        purpose: 'INVITE',
        createdByUserId: auth.user.id,
        now,
      });
      await recordPeopleChange(tx, {
        groupId: auth.user.groupId,
        action: 'USER_INVITED',
        actor: auth.user,
        targetType: 'USER',
        targetId: row.id,
        detail: { email: row.email, channel: input.channel, after: auditedFields(row) },
        at: now,
      });
      return { user: row, link };
    })
    .catch(asConflict);
  await sendPasswordLink(deps.ctx, {
    user,
    purpose: 'INVITE',
    channel: input.channel,
    ...link,
    groupName: await groupName(ctx.db, auth.user.groupId),
    invitedBy: auth.user.identifier,
    publicUrl: deps.publicUrl,
  });
  return managedUser(ctx.db, user.id);
}

/**
 * PUT /api/admin/users/{id}: name, mobile, roles, center. Roles the caller adds must be theirs to
 * give; nobody changes their own roles (the last group admin must not demote themselves out). The
 * user's cached sessions are forgotten so the new roles hold from their next request.
 */
export async function updateUser(
  ctx: AppContext,
  auth: TAuth,
  userId: number,
  input: TPersonFields,
): Promise<TManagedUser> {
  const now = ctx.now();
  const roles = sortRolesForDisplay(input.roles);
  await ctx.db
    .transaction(async (tx) => {
      const before = await lockManagedUser(tx, auth, userId);
      const oldRoles = storedRoles(before);
      const rolesChanged = roles.length !== oldRoles.length || roles.some((r) => !oldRoles.includes(r));
      if (userId === auth.user.id && (rolesChanged || input.centerId !== before.centerId))
        throw new AppError('BAD_REQUEST', MESSAGE_NOT_YOURSELF, 'roles');
      const addedRoles = roles.filter((r) => !oldRoles.includes(r));
      await assertPersonFields(tx, auth, input, { addedRoles, userId });
      const [after] = await tx
        .update(users)
        .set({
          identifier: input.identifier,
          mobileNumber: input.mobileNumber,
          roles,
          centerId: input.centerId,
        })
        .where(eq(users.id, userId))
        .returning();
      if (!after) throw new Error('user not updated');
      await recordPeopleChange(tx, {
        groupId: auth.user.groupId,
        action: 'USER_UPDATED',
        actor: auth.user,
        targetType: 'USER',
        targetId: userId,
        detail: { before: auditedFields(before), after: auditedFields(after) },
        at: now,
      });
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', MESSAGE_MOBILE_TAKEN, 'mobileNumber');
      throw error;
    });
  forgetSessionsOfUser(userId);
  return managedUser(ctx.db, userId);
}

/**
 * POST /api/admin/users/{id}/deactivate and /activate. Deactivation ends the user's sessions, API
 * tokens and unused set-password links in the same transaction (an inactive account is refused at
 * sign-in and by every token check as well); nobody deactivates themselves.
 */
export async function setUserActive(
  ctx: AppContext,
  auth: TAuth,
  userId: number,
  active: boolean,
): Promise<TManagedUser> {
  if (!active && userId === auth.user.id) throw new AppError('BAD_REQUEST', MESSAGE_NOT_YOURSELF);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const before = await lockManagedUser(tx, auth, userId);
    if (before.active === active) return;
    await tx.update(users).set({ active }).where(eq(users.id, userId));
    if (!active) {
      await revokeSessions(tx, userId, null);
      await revokeApiTokensOfUser(tx, userId);
      await dropUnusedLinks(tx, userId);
    }
    await recordPeopleChange(tx, {
      groupId: auth.user.groupId,
      action: active ? 'USER_ACTIVATED' : 'USER_DEACTIVATED',
      actor: auth.user,
      targetType: 'USER',
      targetId: userId,
      at: now,
    });
  });
  forgetSessionsOfUser(userId);
  return managedUser(ctx.db, userId);
}

/**
 * POST /api/admin/users/{id}/reset-password (a RESET link) and /resend-invitation (a new INVITE link,
 * while the invitation is still pending). The current password keeps working until the link is used:
 * a reset sent by mistake locks nobody out.
 */
export async function sendNewPasswordLink(
  deps: TPeopleDeps,
  auth: TAuth,
  userId: number,
  opts: { purpose: 'INVITE' | 'RESET'; channel: TInvitationChannel },
): Promise<{ channel: TInvitationChannel; recipient: string; expiresAt: string }> {
  const { ctx } = deps;
  const now = ctx.now();
  const { user, link } = await ctx.db.transaction(async (tx) => {
    const user = await lockManagedUser(tx, auth, userId);
    if (!user.active) throw new AppError('BAD_REQUEST', MESSAGE_USER_INACTIVE);
    if (opts.channel === 'SMS' && !user.mobileNumber)
      throw new AppError('BAD_REQUEST', MESSAGE_SMS_NEEDS_MOBILE, 'mobileNumber');
    if (opts.purpose === 'INVITE') {
      const [pending] = await tx
        .select({ id: passwordLinks.id })
        .from(passwordLinks)
        .where(
          and(
            eq(passwordLinks.userId, userId),
            eq(passwordLinks.purpose, 'INVITE'),
            isNull(passwordLinks.usedAt),
          ),
        );
      if (!pending) throw new AppError('BAD_REQUEST', MESSAGE_INVITATION_USED);
    }
    const link = await createPasswordLink(tx, {
      userId,
      purpose: opts.purpose,
      createdByUserId: auth.user.id,
      now,
    });
    await recordPeopleChange(tx, {
      groupId: auth.user.groupId,
      action: opts.purpose === 'INVITE' ? 'INVITATION_RESENT' : 'PASSWORD_RESET_SENT',
      actor: auth.user,
      targetType: 'USER',
      targetId: userId,
      detail: { channel: opts.channel },
      at: now,
    });
    return { user, link };
  });
  const recipient = await sendPasswordLink(deps.ctx, {
    user,
    purpose: opts.purpose,
    channel: opts.channel,
    ...link,
    groupName: await groupName(ctx.db, auth.user.groupId),
    invitedBy: auth.user.identifier,
    publicUrl: deps.publicUrl,
  });
  return { channel: opts.channel, recipient, expiresAt: link.expiresAt.toISOString() };
}

/**
 * PUT /api/admin/users/{id}/doctors: the doctors a typist types for (spec-core §6: a typist must
 * first choose a doctor from the doctor-role users); each an active doctor of the group. Replaces the
 * typist's ROLE_DOCTOR mapping, which GET /api/user/mapping then answers instead of every doctor.
 */
export async function setTypistDoctors(
  ctx: AppContext,
  auth: TAuth,
  userId: number,
  doctorIds: readonly number[],
): Promise<TManagedUser> {
  const now = ctx.now();
  const wanted = [...new Set(doctorIds)].sort((a, b) => a - b);
  await ctx.db.transaction(async (tx) => {
    const typist = await lockManagedUser(tx, auth, userId);
    if (!storedRoles(typist).includes('ROLE_TYPIST')) throw new AppError('BAD_REQUEST', MESSAGE_NOT_A_TYPIST);
    if (wanted.length > 0) {
      const doctors = await tx
        .select({ id: users.id, roles: users.roles })
        .from(users)
        .where(and(inArray(users.id, wanted), eq(users.groupId, auth.user.groupId), eq(users.active, true)));
      const valid = doctors.filter((d) => storedRoles(d).includes('ROLE_DOCTOR'));
      if (valid.length !== wanted.length)
        throw new AppError('BAD_REQUEST', MESSAGE_NOT_A_DOCTOR, 'doctorIds');
    }
    const before = await tx
      .select({ id: userMappings.mappedUserId })
      .from(userMappings)
      .where(and(eq(userMappings.userId, userId), eq(userMappings.role, 'ROLE_DOCTOR')));
    await tx
      .delete(userMappings)
      .where(and(eq(userMappings.userId, userId), eq(userMappings.role, 'ROLE_DOCTOR')));
    if (wanted.length > 0)
      await tx
        .insert(userMappings)
        .values(wanted.map((mappedUserId) => ({ userId, role: 'ROLE_DOCTOR', mappedUserId })));
    await recordPeopleChange(tx, {
      groupId: auth.user.groupId,
      action: 'TYPIST_DOCTORS_SET',
      actor: auth.user,
      targetType: 'USER',
      targetId: userId,
      detail: { before: before.map((b) => b.id).sort((a, b) => a - b), after: wanted },
      at: now,
    });
  });
  return managedUser(ctx.db, userId);
}
