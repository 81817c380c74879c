import { z } from 'zod';
import { ALL_LAB_MODALITIES } from '../studies/upload-schemas.js';
import { SETTINGS_MESSAGES as M } from './messages.js';
import { SETTING_LIMITS } from './sections.js';

/**
 * LAB_SLOTS {slots} (spec-lab §3 appointment slot, §5 slot rules; issue 6 §2: 24-hour `HH:mm` times,
 * `weeklyTiming` keyed by the day number as a string, "0" Sunday … "6" Saturday). The list is saved
 * whole; editing a slot keeps its name, so "duplicate name unless editing" is: names are unique in
 * the list.
 */

export const SLOT_DAYS = ['0', '1', '2', '3', '4', '5', '6'] as const;
export const SLOT_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** yyyy-MM-dd naming a real calendar day. */
export function isSlotDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

const slotTime = z.string({ error: M.slotTimeInvalid }).regex(SLOT_TIME_PATTERN, M.slotTimeInvalid);

export const ZSlotDayTiming = z
  .object({
    startTime: slotTime,
    endTime: slotTime,
    appointmentLimit: z
      .number({ error: M.slotLimitInvalid })
      .int(M.slotLimitInvalid)
      .min(1, M.slotLimitInvalid),
  })
  // HH:mm strings order as times do.
  .refine((day) => day.startTime < day.endTime, { message: M.slotStartAfterEnd, path: ['startTime'] });

export const ZLabSlot = z.object({
  name: z
    .string({ error: M.slotNameRequired })
    .trim()
    .min(1, M.slotNameRequired)
    .max(SETTING_LIMITS.nameLength),
  labModalities: z
    .array(z.enum(ALL_LAB_MODALITIES, { error: M.slotModalityRequired }), { error: M.slotModalityRequired })
    .min(1, M.slotModalityRequired)
    .max(1, M.slotOneModality),
  weeklyTiming: z
    .record(z.string(), ZSlotDayTiming)
    .refine((week) => Object.keys(week).length > 0, M.slotDayRequired)
    .refine(
      (week) => Object.keys(week).every((day) => (SLOT_DAYS as readonly string[]).includes(day)),
      M.slotDayInvalid,
    ),
  blockedDays: z
    .array(z.string({ error: M.slotBlockedDateInvalid }).refine(isSlotDate, M.slotBlockedDateInvalid))
    .max(SETTING_LIMITS.listEntries)
    .default([]),
});
export type TLabSlot = z.infer<typeof ZLabSlot>;

function slotList<T extends z.ZodType<TLabSlot, unknown>>(slot: T) {
  return z
    .array(slot)
    .max(SETTING_LIMITS.listEntries)
    .superRefine((slots, ctx) => {
      const seen = new Set<string>();
      slots.forEach((s, index) => {
        const key = s.name.toLowerCase();
        if (seen.has(key))
          ctx.addIssue({ code: 'custom', message: M.slotDuplicateName, path: [index, 'name'] });
        seen.add(key);
      });
    })
    .default([]);
}

/** The stored section (and the answer's shape): no transforms. */
export const ZLabSlotsSetting = z.object({ slots: slotList(ZLabSlot) });
export type TLabSlotsSetting = z.infer<typeof ZLabSlotsSetting>;

/** spec-lab §5 "duplicates ignored": a blocked date sent twice is kept once (update path only). */
const dedupeBlockedDays = (v: unknown) => {
  if (typeof v !== 'object' || v === null) return v;
  const slot = v as Record<string, unknown>;
  return Array.isArray(slot.blockedDays) ? { ...slot, blockedDays: [...new Set(slot.blockedDays)] } : slot;
};

/** What POST /setting/update/LAB_SLOTS accepts. */
export const ZLabSlotsUpdate = z.object({ slots: slotList(z.preprocess(dedupeBlockedDays, ZLabSlot)) });

/**
 * spec-lab §5 "Slot creation is refused … if the appointment setting is off": with the group's
 * appointmentSupportRIS off, a save may keep, change or drop stored slots but not add a new name.
 * Answers the first new slot's name, or null.
 */
export function newSlotName(before: TLabSlotsSetting, after: TLabSlotsSetting): string | null {
  const stored = new Set(before.slots.map((s) => s.name.toLowerCase()));
  return after.slots.find((s) => !stored.has(s.name.toLowerCase()))?.name ?? null;
}
