import {
  PAYMENT_CONFIRM_MAX_PARAMS,
  PAYMENT_ID_PARAM,
  type TProviderPaymentStatus,
  ZPaymentConfirmResponse,
} from '@radflow/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { apiRequest } from '../../api/client';

/*
 * spec-core §2 Login page: "If a payment-id query parameter is present, the parameters plus password
 * and mobile are posted to a payment-confirm call; on paymentStatus PAID the user goes to
 * /user/get-route." The server decides from the provider's answer alone (payments DECISIONS.md).
 */

/** The query parameters to post (first value of each), or null when there is no payment-id. */
export function paymentConfirmParams(search: URLSearchParams): Record<string, string> | null {
  if (!search.get(PAYMENT_ID_PARAM)) return null;
  const params: Record<string, string> = {};
  for (const [key, value] of search.entries()) {
    // password and mobile come from the form, never from the address.
    if (key === 'password' || key === 'mobile' || key in params) continue;
    if (Object.keys(params).length >= PAYMENT_CONFIRM_MAX_PARAMS - 2) break;
    params[key] = value;
  }
  return params;
}

export function postPaymentConfirm(params: Record<string, string>, password: string, mobile: string) {
  return apiRequest('/api/customer-report/payment-confirm', {
    json: { ...params, password, mobile },
    schema: ZPaymentConfirmResponse,
    quiet: true,
  });
}

export type TPaymentConfirmState =
  | { kind: 'none' }
  | { kind: 'checking' }
  | { kind: 'answered'; paymentStatus: TProviderPaymentStatus }
  | { kind: 'error'; message: string };

/** The full-page redirect after a paid confirmation (spec-core §2 route table). */
export const AFTER_PAYMENT_PATH = '/user/get-route';

/** The full-page navigation (an object so tests can watch it: jsdom does not navigate). */
export const fullPage = {
  go(path: string): void {
    window.location.assign(path);
  },
};

/**
 * Posts the confirmation once when the page opens with a payment-id (the form's password and mobile
 * as they are then), and again on `retry`. PAID: a full-page load of /user/get-route, so the session
 * and the payment state are read afresh.
 */
export function usePaymentConfirm(form: { password: string; mobile: string }) {
  const [search] = useSearchParams();
  const [params] = useState(() => paymentConfirmParams(search));
  const [state, setState] = useState<TPaymentConfirmState>(() =>
    params ? { kind: 'checking' } : { kind: 'none' },
  );
  const formRef = useRef(form);
  formRef.current = form;

  const confirm = useCallback(async () => {
    if (!params) return;
    setState({ kind: 'checking' });
    try {
      const { paymentStatus } = await postPaymentConfirm(
        params,
        formRef.current.password,
        formRef.current.mobile,
      );
      setState({ kind: 'answered', paymentStatus });
      if (paymentStatus === 'PAID') fullPage.go(AFTER_PAYMENT_PATH);
    } catch (error) {
      setState({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  }, [params]);

  useEffect(() => {
    void confirm();
  }, [confirm]);

  return { state, retry: confirm };
}
