import Alert from '@mui/material/Alert';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { TInvoicePayLink } from '@radflow/core';
import { failureText } from '../tele-billing/tele-billing.api';
import { confirmInvoicePayment, returnParamsOf } from './invoice-payments.api';

/** The full-page navigation to the provider (an object so tests can watch it: jsdom does not navigate). */
export const providerPage = {
  go(url: string): void {
    window.location.assign(url);
  },
};

const NO_ONLINE_PAYMENT =
  'Online payment is not set up here: pay by bank transfer or UPI and send the reference to your biller, who records it.';

/**
 * The pay button's flow and the provider's return, shared by both invoice pages: Pay asks the server
 * for the provider's link and goes there; back on the page with `payment-id`, the page posts its
 * query once (the provider's signed answer decides) and says what happened, then `onSettled`
 * re-reads the invoices.
 */
export function usePayFlow(pay: (invoiceId: number) => Promise<TInvoicePayLink>, onSettled: () => void) {
  const [search, setSearch] = useSearchParams();
  const [params] = useState(() => returnParamsOf(search));
  const [notice, setNotice] = useState<{ severity: 'success' | 'info' | 'error'; text: string } | null>(null);
  const start = useMutation({
    mutationFn: pay,
    onSuccess: (link) => {
      if (link.url) providerPage.go(link.url);
      else setNotice({ severity: 'info', text: NO_ONLINE_PAYMENT });
    },
    onError: (error) => setNotice({ severity: 'error', text: failureText(error) }),
  });
  useEffect(() => {
    if (!params) return;
    let live = true;
    confirmInvoicePayment(params)
      .then((answer) => {
        if (!live) return;
        setNotice(
          answer.paymentStatus === 'PAID'
            ? { severity: 'success', text: 'Payment received. Thank you.' }
            : {
                severity: 'info',
                text: 'Your payment is not confirmed yet; it will show here once the provider confirms it.',
              },
        );
        setSearch({}, { replace: true });
        onSettled();
      })
      .catch((error: unknown) => live && setNotice({ severity: 'error', text: failureText(error) }));
    return () => {
      live = false;
    };
    // Once per return: the parameters are read when the page opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params]);
  const banner = notice && (
    <Alert severity={notice.severity} onClose={() => setNotice(null)} sx={{ mb: 2 }}>
      {notice.text}
    </Alert>
  );
  return { payNow: (invoiceId: number) => start.mutate(invoiceId), paying: start.isPending, banner };
}
