import { and, eq, sql } from 'drizzle-orm';
import {
  AppError,
  LAB_PATIENT_MESSAGES as M,
  type TLabPatient,
  type TLabPatientInput,
  type TLabPatientUpdate,
  ageStringOf,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { labPatients } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { recordLabAudit } from '../lab-settings/lab-audit.js';
import { inLab, labOwnerValues } from '../lab-settings/lab-owner.js';
import { takeNextUhid } from './uhid.js';

type TPatientRow = typeof labPatients.$inferSelect;

export function toLabPatient(row: TPatientRow): TLabPatient {
  return {
    id: row.id,
    uhidNumber: row.uhidNumber,
    name: row.name,
    mobileNumber: row.mobileNumber,
    email: row.email,
    address: row.address,
    gender: row.gender,
    designation: row.designation,
    weight: row.weight,
    dateBirth: row.dateBirth,
    ageString: row.ageString,
    ageYears: row.ageYears,
    ageMonths: row.ageMonths,
    ageDays: row.ageDays,
    createdAt: row.createdAt.toISOString(),
    version: row.version,
  };
}

/** The stored columns of the dialog's fields; the age string is derived, never sent. */
function columnsOf(input: TLabPatientInput) {
  return {
    name: input.name,
    designation: input.designation,
    gender: input.gender,
    mobileNumber: input.mobileNumber,
    email: input.email,
    address: input.address,
    weight: input.weight,
    dateBirth: input.dateBirth,
    ageYears: input.ageYears,
    ageMonths: input.ageMonths,
    ageDays: input.ageDays,
    ageString: ageStringOf({ years: input.ageYears, months: input.ageMonths, days: input.ageDays }),
  };
}
type TPatientColumns = ReturnType<typeof columnsOf>;

async function audit(
  tx: Tx,
  auth: TAuth,
  patientId: number,
  action: string,
  detail: Record<string, unknown>,
) {
  await recordLabAudit(tx, auth, { entity: 'PATIENT', entityId: patientId, action, detail });
}

/** POST /lab/register-patient: a new patient of the caller's lab with the lab's next UHID. */
export async function registerPatient(
  ctx: AppContext,
  auth: TAuth,
  input: TLabPatientInput,
): Promise<TLabPatient> {
  return ctx.db.transaction(async (tx) => {
    const uhidNumber = await takeNextUhid(tx, auth);
    const now = ctx.now();
    const [row] = await tx
      .insert(labPatients)
      .values({
        ...labOwnerValues(auth),
        ...columnsOf(input),
        uhidNumber,
        createdBy: auth.user.email,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error('patient not inserted');
    await audit(tx, auth, row.id, 'CREATED', { uhidNumber, name: row.name });
    return toLabPatient(row);
  });
}

/**
 * PUT /lab/register-patient: the dialog's fields replace the stored ones if nobody saved the
 * patient since the editor read it (`version`), else 409 and nothing changes. The UHID stays.
 */
export async function updatePatient(
  ctx: AppContext,
  auth: TAuth,
  input: TLabPatientUpdate,
): Promise<TLabPatient> {
  return ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(labPatients)
      .where(and(eq(labPatients.id, input.id), inLab(labPatients, auth)))
      .for('update');
    if (!before) throw new AppError('NOT_FOUND', M.notFound, 'id');
    if (before.version !== input.version) throw new AppError('CONFLICT', M.stale, 'version');
    const next = columnsOf(input);
    const changed = (Object.keys(next) as Array<keyof TPatientColumns>).filter(
      (key) => String(next[key] ?? '') !== String(before[key] ?? ''),
    );
    const [row] = await tx
      .update(labPatients)
      .set({ ...next, version: sql`${labPatients.version} + 1`, updatedAt: ctx.now() })
      .where(eq(labPatients.id, before.id))
      .returning();
    if (!row) throw new Error('patient not updated');
    await audit(tx, auth, row.id, 'UPDATED', {
      changed: Object.fromEntries(changed.map((key) => [key, { from: before[key], to: next[key] }])),
    });
    return toLabPatient(row);
  });
}

/** One patient of the caller's lab (the bill screen opens with `?patientId=`); 404 for any other. */
export async function getPatient(db: DbOrTx, auth: TAuth, id: number): Promise<TLabPatient> {
  const [row] = await db
    .select()
    .from(labPatients)
    .where(and(eq(labPatients.id, id), inLab(labPatients, auth)));
  if (!row) throw new AppError('NOT_FOUND', M.notFound, 'id');
  return toLabPatient(row);
}
