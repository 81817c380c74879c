import { count } from 'drizzle-orm';
import { CENTER_ROLES, ROLES, type TRole, demoEmailForRole } from '@radflow/core';
import type { Db } from '../../db/client.js';
import { centers, groups, studyTypes, userMappings, users } from '../../db/schema.js';
import { hashPassword } from '../auth/passwords.js';
import { seedDemoLab } from './seed-demo-lab.js';

export const DEMO_PASSWORD = 'demo12345';
export const DEMO_GROUP_NAME = 'Demo Teleradiology';
export const DEMO_CENTER = {
  name: 'Demo Imaging Center',
  email: 'center@demo.local',
  aeTitles: ['DEMOCENTER'],
};
export const DEMO_STUDY_TYPES = [
  { name: 'CT Brain Plain', modality: 'CT' },
  { name: 'MRI Knee', modality: 'MR' },
  { name: 'X-Ray Chest PA', modality: 'DX' },
  { name: 'USG Abdomen', modality: 'US' },
  { name: 'MRI Brain Plain', modality: 'MR' },
  { name: 'CT Abdomen Contrast', modality: 'CT' },
];

/** 'ROLE_CENTER_CUSTOMER' → 'Demo Center Customer'. */
export function demoIdentifierForRole(role: TRole): string {
  const words = role
    .slice('ROLE_'.length)
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return `Demo ${words.join(' ')}`;
}

/** `98765000NN`, NN the role's 1-based index in core ROLES (ROLE_ADMIN 9876500001). */
export function demoMobileForRole(role: TRole): string {
  return `98765000${String(ROLES.indexOf(role) + 1).padStart(2, '0')}`;
}

/**
 * Demo data of issue 2 §6, written in one transaction and only into a database without users, so
 * it is idempotent. The password is hashed once for every demo account (argon2 is the slow part).
 * Returns whether it seeded.
 */
export async function seedDemo(db: Db): Promise<boolean> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(users);
    if ((existing?.n ?? 0) > 0) return false;

    const [group] = await tx
      .insert(groups)
      .values({ name: DEMO_GROUP_NAME, platformOperator: true })
      .returning();
    if (!group) throw new Error('seed: group not created');
    const [center] = await tx
      .insert(centers)
      .values({ groupId: group.id, ...DEMO_CENTER })
      .returning();
    if (!center) throw new Error('seed: center not created');

    const created = await tx
      .insert(users)
      .values(
        ROLES.map((role) => ({
          email: demoEmailForRole(role),
          mobileNumber: demoMobileForRole(role),
          passwordHash,
          // The hybrid account is a reporting doctor in hybrid mode (apps/router HYBRID.md): with
          // hybridModeOn its session shows ROLE_OFFLINE_HYBRID, while the cloud takes its offline
          // reports only from a stored ROLE_DOCTOR.
          roles: [role === 'ROLE_OFFLINE_HYBRID' ? 'ROLE_DOCTOR' : role],
          groupId: group.id,
          centerId: CENTER_ROLES.includes(role) ? center.id : null,
          identifier: demoIdentifierForRole(role),
          hybridModeOn: role === 'ROLE_OFFLINE_HYBRID',
        })),
      )
      .returning({ id: users.id, email: users.email });
    const idOf = (role: TRole) => {
      const user = created.find((u) => u.email === demoEmailForRole(role));
      if (!user) throw new Error(`seed: no user for ${role}`);
      return user.id;
    };
    await tx
      .insert(userMappings)
      .values({ userId: idOf('ROLE_TYPIST'), role: 'ROLE_DOCTOR', mappedUserId: idOf('ROLE_DOCTOR') });
    await tx.insert(studyTypes).values(DEMO_STUDY_TYPES.map((t) => ({ groupId: group.id, ...t })));
    await seedDemoLab(tx, {
      groupId: group.id,
      centerId: center.id,
      createdBy: demoEmailForRole('ROLE_LABS_SUPERVISOR'),
    });
    return true;
  });
}
