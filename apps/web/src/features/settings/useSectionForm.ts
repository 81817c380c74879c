import type { TPreferenceSection, TUserPreferences } from '@radflow/core';
import { useState } from 'react';
import { settingErrorText, useResetSection, useSaveSection, useUserPreferences } from './settings-api';

/**
 * The form state of a dialog that edits one of the user's sections: starts from the stored values,
 * saves the whole form, closes on success and keeps what was typed on failure (the frame shows the
 * server's words). Reset asks first (the frame), then stores the defaults and closes.
 */
export function useSectionForm<S extends TPreferenceSection>(section: S, onClose: () => void) {
  const stored = useUserPreferences()[section];
  const [value, setValue] = useState<TUserPreferences[S]>(stored);
  const save = useSaveSection(section);
  const reset = useResetSection(section);
  const failed = save.error ?? reset.error;
  return {
    value,
    setValue,
    /** Sets one field. */
    set: <K extends keyof TUserPreferences[S]>(field: K, next: TUserPreferences[S][K]) =>
      setValue((current) => ({ ...current, [field]: next })),
    frame: {
      onSave: () => save.mutate(value, { onSuccess: onClose }),
      onReset: () => reset.mutate(undefined, { onSuccess: onClose }),
      busy: save.isPending || reset.isPending,
      error: failed ? settingErrorText(failed) : null,
    },
  };
}
