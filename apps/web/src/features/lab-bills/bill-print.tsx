import { type TPrintOption } from '@radflow/core';
import { type ReactNode, useCallback, useState } from 'react';
import { PrintOptionDialog } from '../lab-summary/PrintOptionDialog';

/**
 * The print-option chooser for the bill screen and the billing list (lab-summary's PrintOptionDialog:
 * invoice only, appointment slip only, both, cancel). `choose` opens it and resolves when it closes,
 * so the bill screen leaves only after the receptionist chose (the documents open in the click).
 */
export function useBillPrintChooser(): {
  choose: (billId: number, options: readonly TPrintOption[]) => Promise<void>;
  dialog: ReactNode;
} {
  const [asked, setAsked] = useState<{
    billId: number;
    options: readonly TPrintOption[];
    done: () => void;
  } | null>(null);
  const choose = useCallback(
    (billId: number, options: readonly TPrintOption[]) =>
      new Promise<void>((done) => setAsked({ billId, options, done })),
    [],
  );
  const dialog = asked && (
    <PrintOptionDialog
      billId={asked.billId}
      options={asked.options}
      open
      onClose={() => {
        setAsked(null);
        asked.done();
      }}
    />
  );
  return { choose, dialog };
}
