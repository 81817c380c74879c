import { type SQL, and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  AppError,
  REFERRING_DOCTOR_MESSAGES as M,
  type TReferringDoctor,
  type TReferringDoctorInput,
  type TReferringDoctorPage,
  type TReferringDoctorSearch,
  type TReferringDoctorUpdate,
  departmentChangeProblem,
  toPageResponse,
  unknownDepartmentMessage,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { labReferringDoctors } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { recordLabAudit } from '../lab-settings/lab-audit.js';
import { inLab, labOwnerValues } from '../lab-settings/lab-owner.js';
import { loadLabPreferences } from '../lab-settings/lab-preferences.js';

type TDoctorRow = typeof labReferringDoctors.$inferSelect;

function toReferringDoctor(row: TDoctorRow): TReferringDoctor {
  return {
    id: row.id,
    name: row.name,
    mobileNumber: row.mobileNumber,
    department: row.department,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    version: row.version,
  };
}

/**
 * A doctor's department is one of the lab's referring doctor departments (LAB_DEPARTMENTS
 * referringDoctorDepartmentList, the settings the center keeps; read as GET /lab/get-preferences
 * answers them). Departments are never deleted, so a stored one stays valid.
 */
async function assertKnownDepartment(tx: DbOrTx, auth: TAuth, department: string | null) {
  if (department === null) return;
  const { LAB_DEPARTMENTS } = await loadLabPreferences(tx, auth.user);
  if (!LAB_DEPARTMENTS.referringDoctorDepartmentList.includes(department)) {
    throw new AppError('BAD_REQUEST', unknownDepartmentMessage(department), 'department');
  }
}

async function audit(tx: Tx, auth: TAuth, doctorId: number, action: string, detail: Record<string, unknown>) {
  await recordLabAudit(tx, auth, { entity: 'REFERRING_DOCTOR', entityId: doctorId, action, detail });
}

/** POST /lab/referring-doctor: a new, active doctor of the caller's lab (core refuses inactive). */
export async function createReferringDoctor(
  ctx: AppContext,
  auth: TAuth,
  input: TReferringDoctorInput,
): Promise<TReferringDoctor> {
  return ctx.db.transaction(async (tx) => {
    await assertKnownDepartment(tx, auth, input.department);
    const now = ctx.now();
    const [row] = await tx
      .insert(labReferringDoctors)
      .values({
        ...labOwnerValues(auth),
        name: input.name,
        mobileNumber: input.mobileNumber,
        department: input.department,
        active: true,
        createdBy: auth.user.email,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error('referring doctor not inserted');
    await audit(tx, auth, row.id, 'CREATED', { name: row.name, department: row.department });
    return toReferringDoctor(row);
  });
}

/**
 * PUT /lab/referring-doctor: name, mobile, department (only a first one: fixed once set) and the
 * active state (the list's toggle), if nobody saved the doctor since `version` was read, else 409.
 */
export async function updateReferringDoctor(
  ctx: AppContext,
  auth: TAuth,
  input: TReferringDoctorUpdate,
): Promise<TReferringDoctor> {
  return ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(labReferringDoctors)
      .where(and(eq(labReferringDoctors.id, input.id), inLab(labReferringDoctors, auth)))
      .for('update');
    if (!before) throw new AppError('NOT_FOUND', M.notFound, 'id');
    if (before.version !== input.version) throw new AppError('CONFLICT', M.stale, 'version');
    const problem = departmentChangeProblem(before.department, input.department);
    if (problem) throw new AppError('BAD_REQUEST', problem, 'department');
    if (before.department === null) await assertKnownDepartment(tx, auth, input.department);
    const [row] = await tx
      .update(labReferringDoctors)
      .set({
        name: input.name,
        mobileNumber: input.mobileNumber,
        department: input.department,
        active: input.active,
        version: sql`${labReferringDoctors.version} + 1`,
        updatedAt: ctx.now(),
      })
      .where(eq(labReferringDoctors.id, before.id))
      .returning();
    if (!row) throw new Error('referring doctor not updated');
    const action = before.active !== row.active ? (row.active ? 'ACTIVATED' : 'DEACTIVATED') : 'UPDATED';
    const changed = (['name', 'mobileNumber', 'department', 'active'] as const).filter(
      (key) => before[key] !== row[key],
    );
    await audit(tx, auth, row.id, action, {
      changed: Object.fromEntries(changed.map((key) => [key, { from: before[key], to: row[key] }])),
    });
    return toReferringDoctor(row);
  });
}

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const SORT_COLUMNS = {
  id: labReferringDoctors.id,
  name: sql`lower(${labReferringDoctors.name})`,
  department: labReferringDoctors.department,
  createdAt: labReferringDoctors.createdAt,
} as const;

/**
 * POST /lab/referring-doctor/search: digits are a mobile prefix, other text a piece of the name;
 * departments and the active state narrow it; a page in the asked order (ties by id) and the total.
 * A lab has hundreds of doctors, not millions: its (lab, name) index and a filter suffice.
 */
export async function searchReferringDoctors(
  db: DbOrTx,
  auth: TAuth,
  search: TReferringDoctorSearch,
): Promise<TReferringDoctorPage> {
  const conditions: Array<SQL | undefined> = [inLab(labReferringDoctors, auth)];
  const text = search.mobileOrName;
  if (text) {
    conditions.push(
      /^\d+$/.test(text)
        ? sql`${labReferringDoctors.mobileNumber} like ${`${likeEscaped(text)}%`}`
        : sql`lower(${labReferringDoctors.name}) like ${`%${likeEscaped(text.toLowerCase())}%`}`,
    );
  }
  if (search.departments && search.departments.length > 0) {
    conditions.push(inArray(labReferringDoctors.department, search.departments));
  }
  if (search.active !== undefined && search.active !== null) {
    conditions.push(eq(labReferringDoctors.active, search.active));
  }
  const where = and(...conditions);
  const { page, size, orderingCriteria, sortOrder } = search.criteria;
  const direction = sortOrder === 'ASC' ? asc : desc;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(labReferringDoctors)
      .where(where)
      .orderBy(direction(SORT_COLUMNS[orderingCriteria]), direction(labReferringDoctors.id))
      .limit(size)
      .offset(page * size),
    db.select({ n: count() }).from(labReferringDoctors).where(where),
  ]);
  return toPageResponse(rows.map(toReferringDoctor), total?.n ?? 0, page, size);
}
