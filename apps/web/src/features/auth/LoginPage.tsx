import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { isDeviceApprovalError } from '@radflow/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { getDeviceId, getDeviceName } from '../../api/device';
import { requestOtp } from '../../api/identity';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { BrandLogo } from '../brand/BrandLogo';
import {
  OTP_NOTE,
  credentialsView,
  sanitizeOtpInput,
  validateOtp,
  validateOtpRequest,
  validatePasswordSignIn,
  type TLoginStep,
} from './login-form';
import { useSignIn } from './useAuthActions';
import { PaymentConfirmNotice } from './PaymentConfirmNotice';
import { usePaymentConfirm } from './payment-confirm';

type TFieldErrors = Partial<Record<'identifier' | 'password' | 'otp', string>>;

/**
 * spec-core §2 Login page. Route /login-page/:user? prefills the identifier.
 *
 * With a `payment-id` query parameter (a payment provider returning the payer), the parameters plus
 * password and mobile are posted to the payment-confirm call; PAID goes to /user/get-route
 * (payment-confirm.ts).
 */
export function LoginPage() {
  const params = useParams();
  const [identifier, setIdentifier] = useState(() => params.user ?? '');
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const [step, setStep] = useState<TLoginStep>('credentials');
  const [otpMobile, setOtpMobile] = useState('');
  const [errors, setErrors] = useState<TFieldErrors>({});
  const [awaitingApproval, setAwaitingApproval] = useState(false);
  const { showError } = useSnackbar();
  const signIn = useSignIn();

  const view = credentialsView(identifier);
  const payment = usePaymentConfirm({
    password,
    mobile: otpMobile || (view.isMobile ? identifier.trim() : ''),
  });

  /** Runs a server call; its failure is already in the snackbar (the API client shows it). */
  const call = useMutation({
    mutationFn: (task: () => Promise<unknown>) => task(),
    onError: (error) => {
      if (error instanceof ApiError) {
        setAwaitingApproval(isDeviceApprovalError(error.body));
      } else {
        showError(error instanceof Error ? error.message : String(error));
      }
    },
  });
  const busy = call.isPending;
  const run = (task: () => Promise<unknown>) => call.mutate(task);

  const submitPassword = () => {
    const checked = validatePasswordSignIn(identifier, password);
    if (!checked.ok) return setErrors({ [checked.field]: checked.message });
    setErrors({});
    run(() => signIn(checked.value.email, checked.value.password));
  };

  const submitOtpRequest = () => {
    const checked = validateOtpRequest(identifier);
    if (!checked.ok) {
      setErrors({});
      return showError(checked.message);
    }
    setErrors({});
    run(async () => {
      await requestOtp(checked.value.mobile);
      setOtpMobile(checked.value.mobile);
      setOtp('');
      setStep('otp');
    });
  };

  const submitOtp = () => {
    const checked = validateOtp(otp);
    if (!checked.ok) return setErrors({ otp: checked.message });
    setErrors({});
    run(() => signIn(otpMobile, checked.value));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (step === 'otp') submitOtp();
    else if (view.primaryAction === 'request-otp') submitOtpRequest();
    else submitPassword();
  };

  return (
    <Box
      component="main"
      sx={{
        flex: 1,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        px: 2,
        py: 6,
        background:
          'radial-gradient(1200px 600px at 50% -10%, rgba(56,189,248,0.10), transparent 60%), #0b1220',
      }}
    >
      <Paper
        variant="outlined"
        sx={{ width: '100%', maxWidth: 380, position: 'relative', overflow: 'hidden' }}
      >
        {busy && <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0 }} />}
        <Box component="form" noValidate onSubmit={onSubmit} sx={{ p: 3.5 }}>
          <Stack spacing={2}>
            <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, mb: 1 }}>
              <BrandLogo size={40} scope={{ kind: 'public' }} />
              <Typography variant="body2" color="textSecondary">
                Teleradiology and reporting
              </Typography>
            </Box>
            <Typography component="h1" variant="h2" sx={{ textAlign: 'center' }}>
              {step === 'otp' ? 'Enter your one-time code' : 'Sign in'}
            </Typography>

            <PaymentConfirmNotice state={payment.state} onRetry={() => void payment.retry()} />

            {step === 'credentials' ? (
              <>
                <TextField
                  label="Mobile number or e-mail"
                  name="email"
                  value={identifier}
                  onChange={(e) => setIdentifier(e.target.value)}
                  autoComplete="username"
                  autoFocus
                  error={Boolean(errors.identifier)}
                  helperText={errors.identifier}
                  slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
                />
                {view.showPassword && (
                  <TextField
                    label="Password"
                    name="password"
                    type="password"
                    value={password}
                    onChange={(e) => setPassword(e.target.value)}
                    autoComplete="current-password"
                    error={Boolean(errors.password)}
                    helperText={errors.password}
                  />
                )}
                {view.showOtpNote && (
                  <Typography variant="caption" color="textSecondary" data-testid="otp-note">
                    {OTP_NOTE}
                  </Typography>
                )}
                <Stack direction="row" spacing={1}>
                  {!view.isMobile && (
                    <Button type="submit" variant="contained" disabled={busy} sx={{ flex: 1 }}>
                      Sign in
                    </Button>
                  )}
                  <Button
                    type={view.isMobile ? 'submit' : 'button'}
                    variant={view.isMobile ? 'contained' : 'outlined'}
                    disabled={busy}
                    onClick={view.isMobile ? undefined : submitOtpRequest}
                    sx={{ flex: 1 }}
                  >
                    Request OTP
                  </Button>
                </Stack>
                <Typography variant="body2" sx={{ textAlign: 'center' }}>
                  <Link component={RouterLink} to="/signup">
                    Create an account for your center/group
                  </Link>
                </Typography>
              </>
            ) : (
              <>
                <Typography variant="body2" color="textSecondary">
                  We sent a 6-digit code by SMS to {otpMobile}.
                </Typography>
                <TextField
                  label="One-time code"
                  name="password"
                  value={otp}
                  onChange={(e) => setOtp(sanitizeOtpInput(e.target.value))}
                  autoComplete="one-time-code"
                  autoFocus
                  error={Boolean(errors.otp)}
                  helperText={errors.otp}
                  slotProps={{
                    htmlInput: {
                      inputMode: 'numeric',
                      pattern: '[0-9]{6}',
                      maxLength: 6,
                      style: { letterSpacing: '0.4em', fontVariantNumeric: 'tabular-nums' },
                    },
                  }}
                />
                <Button type="submit" variant="contained" disabled={busy}>
                  Sign In
                </Button>
                <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between' }}>
                  <Button
                    size="small"
                    color="inherit"
                    disabled={busy}
                    onClick={() => {
                      setStep('credentials');
                      setErrors({});
                    }}
                  >
                    Change number
                  </Button>
                  <Button size="small" disabled={busy} onClick={submitOtpRequest}>
                    Resend code
                  </Button>
                </Stack>
              </>
            )}

            {awaitingApproval && (
              <Alert severity="warning" role="status" variant="outlined">
                This device is waiting for approval. Ask your group administrator to approve “
                {getDeviceName()}” (device {getDeviceId().slice(0, 8)}) under Audit Logins, then sign in
                again.
              </Alert>
            )}
          </Stack>
        </Box>
      </Paper>
    </Box>
  );
}

export default LoginPage;
