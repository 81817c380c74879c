import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { PAYMENT_CONFIRM_MESSAGES as M } from '@radflow/core';
import type { TPaymentConfirmState } from './payment-confirm';

/** The login page's payment confirmation, in place above the sign-in form. */
export function PaymentConfirmNotice({ state, onRetry }: { state: TPaymentConfirmState; onRetry(): void }) {
  if (state.kind === 'none') return null;
  if (state.kind === 'checking')
    return (
      <Alert severity="info" role="status">
        {M.checking}
      </Alert>
    );
  const retry = (
    <Button color="inherit" size="small" onClick={onRetry}>
      {M.retry}
    </Button>
  );
  if (state.kind === 'error')
    return (
      <Alert severity="error" role="alert" action={retry}>
        {state.message}
      </Alert>
    );
  switch (state.paymentStatus) {
    case 'PAID':
      return (
        <Alert severity="success" role="status">
          {M.paid}
        </Alert>
      );
    case 'PENDING':
      return (
        <Alert severity="warning" role="status" action={retry}>
          {M.pending}
        </Alert>
      );
    case 'FAILED':
      return (
        <Alert severity="error" role="alert" action={retry}>
          {M.failed}
        </Alert>
      );
  }
}
