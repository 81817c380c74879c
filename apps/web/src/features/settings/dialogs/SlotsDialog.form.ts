import { SLOT_DAYS, ZLabSlotsUpdate, type TLabSlot } from '@radflow/core';

/** spec-lab §3: days 0 (Sunday) … 6 (Saturday). */
export const SLOT_DAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

export interface TSlotDayForm {
  enabled: boolean;
  startTime: string;
  endTime: string;
  /** As typed; the core schema decides whether it is a whole number ≥ 1. */
  appointmentLimit: string;
}

/** One slot as the form edits it (text fields hold strings). */
export interface TSlotForm {
  name: string;
  /** One lab modality, or '' while none is picked. */
  modality: string;
  days: Record<(typeof SLOT_DAYS)[number], TSlotDayForm>;
  blockedDays: string[];
}

const emptyDay = (): TSlotDayForm => ({
  enabled: false,
  startTime: '09:00',
  endTime: '17:00',
  appointmentLimit: '1',
});

export function emptySlotForm(): TSlotForm {
  const days = Object.fromEntries(SLOT_DAYS.map((d) => [d, emptyDay()])) as TSlotForm['days'];
  return { name: '', modality: '', days, blockedDays: [] };
}

export function slotToForm(slot: TLabSlot): TSlotForm {
  const form = emptySlotForm();
  for (const day of SLOT_DAYS) {
    const timing = slot.weeklyTiming[day];
    if (timing) {
      form.days[day] = {
        enabled: true,
        startTime: timing.startTime,
        endTime: timing.endTime,
        appointmentLimit: String(timing.appointmentLimit),
      };
    }
  }
  return {
    ...form,
    name: slot.name,
    modality: slot.labModalities[0] ?? '',
    blockedDays: [...slot.blockedDays],
  };
}

/**
 * The slot the form describes, unchecked: the core schema checks it (a blank limit becomes NaN, which
 * the schema refuses with its limit message).
 */
export function formToSlot(form: TSlotForm): TLabSlot {
  const weeklyTiming: TLabSlot['weeklyTiming'] = {};
  for (const day of SLOT_DAYS) {
    const d = form.days[day];
    if (!d.enabled) continue;
    const limit = d.appointmentLimit.trim();
    weeklyTiming[day] = {
      startTime: d.startTime,
      endTime: d.endTime,
      appointmentLimit: limit === '' ? Number.NaN : Number(limit),
    };
  }
  return {
    name: form.name,
    labModalities: form.modality ? ([form.modality] as TLabSlot['labModalities']) : [],
    weeklyTiming,
    blockedDays: form.blockedDays,
  };
}

/** spec-lab §5 "blocked date format yyyy-MM-dd, duplicates ignored": the list after adding `date`. */
export function addBlockedDay(list: readonly string[], date: string): string[] {
  return list.includes(date) ? [...list] : [...list, date].sort();
}

/**
 * The slot list with `form` added (index null) or put in place of the slot at `index`, checked by the
 * core schema the server uses: the list, or the first message to show.
 */
export function placeSlot(
  slots: readonly TLabSlot[],
  form: TSlotForm,
  index: number | null,
): { slots: TLabSlot[] } | { error: string } {
  const slot = formToSlot(form);
  const next = index === null ? [...slots, slot] : slots.map((s, i) => (i === index ? slot : s));
  const parsed = ZLabSlotsUpdate.safeParse({ slots: next });
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'Invalid slot' };
  return { slots: parsed.data.slots };
}
