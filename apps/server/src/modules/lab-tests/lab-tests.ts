import {
  type SQL,
  and,
  asc,
  count,
  desc,
  eq,
  exists,
  gte,
  ilike,
  inArray,
  lt,
  ne,
  or,
  sql,
} from 'drizzle-orm';
import type { z } from 'zod';
import {
  AppError,
  LAB_TEST_MESSAGES as M,
  type TLabTest,
  type TLabTestPage,
  type TLabTestType,
  type ZAllTestSearch,
  type ZLabTestCreate,
  type ZLabTestSearch,
  type ZLabTestUpdate,
  labTestContextProblem,
  packageMembersProblem,
  toPaise,
  toRupees,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { labBillTests, labBills, labPackageMembers, labTests } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { TAuth } from '../../plugins/auth.js';
import { inLab, labOwnerValues } from '../lab-settings/lab-owner.js';
import { loadGroupPreferences, loadUserPreferences } from '../preferences/preferences.js';
import { recordLabAudit } from '../lab-settings/lab-audit.js';

type TRow = typeof labTests.$inferSelect;
type TCreate = z.output<typeof ZLabTestCreate>;
type TUpdate = z.output<typeof ZLabTestUpdate>;

const duplicateCode = (code: string) => new AppError('CONFLICT', M.duplicateCode(code), 'testCode');

/** The member ids of each package among `ids`, in their saved order. */
async function membersOf(db: DbOrTx, ids: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({ packageTestId: labPackageMembers.packageTestId, memberTestId: labPackageMembers.memberTestId })
    .from(labPackageMembers)
    .where(inArray(labPackageMembers.packageTestId, [...ids]))
    .orderBy(asc(labPackageMembers.packageTestId), asc(labPackageMembers.position));
  for (const r of rows) out.set(r.packageTestId, [...(out.get(r.packageTestId) ?? []), r.memberTestId]);
  return out;
}

function toApi(row: TRow, members: Map<number, number[]>): TLabTest {
  return {
    id: row.id,
    testCode: row.testCode,
    testName: row.testName,
    testType: row.testType,
    // Written only through ZLabTestCreate/Update, so one of ALL_LAB_MODALITIES.
    labModality: row.labModality as TLabTest['labModality'],
    department: row.department,
    price: toRupees(row.priceMinor),
    active: row.active,
    attributes: row.attributes,
    labTestsIds: members.get(row.id) ?? [],
    createdAt: row.createdAt.toISOString(),
    version: row.version,
  };
}

async function withMembers(db: DbOrTx, rows: TRow[]): Promise<TLabTest[]> {
  const members = await membersOf(
    db,
    rows.filter((r) => r.testType === 'PACKAGE').map((r) => r.id),
  );
  return rows.map((r) => toApi(r, members));
}

/** GET /api/lab/test/get-all: every test of the caller's lab (inactive ones too), by code. */
export async function listLabTests(db: DbOrTx, auth: TAuth): Promise<TLabTest[]> {
  const rows = await db
    .select()
    .from(labTests)
    .where(inLab(labTests, auth))
    .orderBy(asc(sql`lower(${labTests.testCode})`), asc(labTests.id));
  return withMembers(db, rows);
}

/** The lab's context of the rules: the group's extra-modality switch and the lab's departments. */
async function labRuleContext(tx: DbOrTx, auth: TAuth) {
  const [group, prefs] = await Promise.all([
    loadGroupPreferences(tx, auth.user.groupId),
    loadUserPreferences(tx, auth.user),
  ]);
  return {
    showExtraModalityType: group.GROUP_SWITCHES.showExtraModalityType,
    labDepartmentList: prefs.LAB_DEPARTMENTS.labDepartmentList,
  };
}

/** The package's members must be NORMAL tests of this lab (core packageMembersProblem). */
async function assertMembers(
  tx: Tx,
  auth: TAuth,
  test: { id?: number; testType: TLabTestType; labTestsIds: number[] },
): Promise<void> {
  const ids = [...new Set(test.labTestsIds)];
  const found =
    ids.length === 0
      ? []
      : await tx
          .select({ id: labTests.id, testType: labTests.testType })
          .from(labTests)
          .where(and(inLab(labTests, auth), inArray(labTests.id, ids)))
          // A member cannot be changed into a package or vanish while the package is saved.
          .for('share');
  const problem = packageMembersProblem({ ...test, labTestsIds: ids }, found);
  if (problem) throw new AppError('BAD_REQUEST', problem, 'labTestsIds');
}

async function writeMembers(tx: Tx, packageTestId: number, ids: readonly number[]): Promise<void> {
  await tx.delete(labPackageMembers).where(eq(labPackageMembers.packageTestId, packageTestId));
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  await tx
    .insert(labPackageMembers)
    .values(unique.map((memberTestId, position) => ({ packageTestId, memberTestId, position })));
}

async function assertCodeFree(tx: Tx, auth: TAuth, code: string, exceptId?: number): Promise<void> {
  const [taken] = await tx
    .select({ id: labTests.id })
    .from(labTests)
    .where(
      and(
        inLab(labTests, auth),
        eq(sql`lower(${labTests.testCode})`, code.toLowerCase()),
        exceptId === undefined ? undefined : ne(labTests.id, exceptId),
      ),
    );
  if (taken) throw duplicateCode(code);
}

/** Runs a write; a unique violation on the code (two saves racing) is the same 409 as the pre-check. */
async function mappingDuplicate<T>(code: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateCode(code);
    throw error;
  }
}

/** POST /api/lab/test (supervisor): the test, its members and its audit row in one transaction. */
export async function createLabTest(ctx: AppContext, auth: TAuth, input: TCreate): Promise<TLabTest> {
  return mappingDuplicate(input.testCode, () =>
    ctx.db.transaction(async (tx) => {
      const problem = labTestContextProblem(input, await labRuleContext(tx, auth));
      if (problem) throw new AppError('BAD_REQUEST', problem.message, problem.field);
      await assertMembers(tx, auth, input);
      await assertCodeFree(tx, auth, input.testCode);
      const [row] = await tx
        .insert(labTests)
        .values({
          ...labOwnerValues(auth),
          testCode: input.testCode,
          testName: input.testName,
          testType: input.testType,
          labModality: input.labModality,
          department: input.department,
          priceMinor: toPaise(input.price),
          active: true,
          attributes: input.attributes,
          createdBy: auth.user.email,
          createdAt: ctx.now(),
          updatedAt: ctx.now(),
        })
        .returning();
      await writeMembers(tx, row!.id, input.labTestsIds);
      const test = toApi(row!, new Map([[row!.id, [...new Set(input.labTestsIds)]]]));
      await recordLabAudit(tx, auth, {
        entity: 'LAB_TEST',
        entityId: row!.id,
        action: 'CREATE',
        detail: test,
      });
      return test;
    }),
  );
}

/**
 * PUT /api/lab/test (supervisor): the whole test replaces the stored one when `version` is the stored
 * version (else 409). The type is fixed at creation (400). A modality or department is checked
 * against today's switch and department list only when it changes, so an old test stays editable.
 */
export async function updateLabTest(ctx: AppContext, auth: TAuth, input: TUpdate): Promise<TLabTest> {
  return mappingDuplicate(input.testCode, () =>
    ctx.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(labTests)
        .where(and(inLab(labTests, auth), eq(labTests.id, input.id)))
        .for('update');
      if (!current) throw new AppError('NOT_FOUND', M.notFound);
      if (current.version !== input.version) throw new AppError('CONFLICT', M.stale, 'version');
      if (current.testType !== input.testType)
        throw new AppError('BAD_REQUEST', M.typeNotEditable, 'testType');
      const problem = labTestContextProblem(input, await labRuleContext(tx, auth), current);
      if (problem) throw new AppError('BAD_REQUEST', problem.message, problem.field);
      await assertMembers(tx, auth, input);
      if (input.testCode.toLowerCase() !== current.testCode.toLowerCase()) {
        await assertCodeFree(tx, auth, input.testCode, current.id);
      }
      const [row] = await tx
        .update(labTests)
        .set({
          testCode: input.testCode,
          testName: input.testName,
          labModality: input.labModality,
          department: input.department,
          priceMinor: toPaise(input.price),
          active: input.active,
          attributes: input.attributes,
          updatedAt: ctx.now(),
          version: current.version + 1,
        })
        .where(eq(labTests.id, current.id))
        .returning();
      const before = toApi(current, await membersOf(tx, [current.id]));
      if (current.testType === 'PACKAGE') await writeMembers(tx, current.id, input.labTestsIds);
      const test = toApi(row!, new Map([[row!.id, [...new Set(input.labTestsIds)]]]));
      await recordLabAudit(tx, auth, {
        entity: 'LAB_TEST',
        entityId: current.id,
        action: before.active !== test.active ? (test.active ? 'ACTIVATE' : 'DEACTIVATE') : 'UPDATE',
        detail: { before, after: test },
      });
      return test;
    }),
  );
}

/** Escapes LIKE wildcards so a typed % or _ matches itself. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const likeText = (text: string) => `%${escapeLike(text)}%`;

/**
 * POST /api/lab/all-test/get (the bill's test search, spec-lab §7): ACTIVE tests only (an inactive
 * test cannot be billed, spec-lab §5 toggle); without text the first `size` (5) by code; with text,
 * every word must appear in the code, the name or the modality (any case), codes starting with the
 * text first. Optional modality and department narrow it (the bill's modality/department pickers).
 */
export async function searchBillableTests(
  db: DbOrTx,
  auth: TAuth,
  search: z.output<typeof ZAllTestSearch>,
): Promise<TLabTestPage> {
  const words = search.text.split(/\s+/).filter(Boolean);
  const where = and(
    inLab(labTests, auth),
    eq(labTests.active, true),
    search.labModality ? eq(labTests.labModality, search.labModality) : undefined,
    search.department ? eq(labTests.department, search.department.toUpperCase()) : undefined,
    ...words.map((w) =>
      or(
        ilike(labTests.testCode, likeText(w)),
        ilike(labTests.testName, likeText(w)),
        ilike(labTests.labModality, likeText(w)),
      ),
    ),
  );
  const prefixFirst =
    words.length > 0
      ? [asc(sql`case when ${labTests.testCode} ilike ${`${escapeLike(search.text)}%`} then 0 else 1 end`)]
      : [];
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(labTests)
      .where(where)
      .orderBy(...prefixFirst, asc(sql`lower(${labTests.testCode})`), asc(labTests.id))
      .limit(search.size)
      .offset(search.page * search.size),
    db.select({ n: count() }).from(labTests).where(where),
  ]);
  return { content: await withMembers(db, rows), totalElements: total?.n ?? 0 };
}

/**
 * POST /api/lab/test/search (the test dashboard, ours; see DECISIONS.md): the tab (Active: billable
 * tests; Scheduled: tests on a SCHEDULED bill line not cancelled; All), the added-date range, the
 * modality filter and a page, newest first.
 */
export async function searchLabTests(
  db: DbOrTx,
  auth: TAuth,
  search: z.output<typeof ZLabTestSearch>,
): Promise<TLabTestPage> {
  const tabFilter: SQL | undefined =
    search.tab === 'Active'
      ? eq(labTests.active, true)
      : search.tab === 'Scheduled'
        ? exists(
            db
              .select({ one: sql`1` })
              .from(labBillTests)
              .innerJoin(labBills, eq(labBills.id, labBillTests.billId))
              .where(
                and(
                  eq(labBillTests.labTestId, labTests.id),
                  inLab(labBills, auth),
                  eq(labBills.status, 'SCHEDULED'),
                  ne(labBillTests.settlementStatus, 'CANCEL'),
                ),
              ),
          )
        : undefined;
  const where = and(
    inLab(labTests, auth),
    tabFilter,
    search.startTime ? gte(labTests.createdAt, new Date(search.startTime)) : undefined,
    search.endTime ? lt(labTests.createdAt, new Date(search.endTime)) : undefined,
    search.labModalities.length > 0 ? inArray(labTests.labModality, search.labModalities) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(labTests)
      .where(where)
      .orderBy(desc(labTests.createdAt), desc(labTests.id))
      .limit(search.size)
      .offset(search.page * search.size),
    db.select({ n: count() }).from(labTests).where(where),
  ]);
  return { content: await withMembers(db, rows), totalElements: total?.n ?? 0 };
}
